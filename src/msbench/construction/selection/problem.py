"""The selection integer program as data: candidates' utilities and hours, constraints, fixed ones.

Every step of the selection (LP bound, neighbourhood sub-MIP, PuLP model,
infeasibility explanation, report) takes one :class:`SelectionProblem`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from msbench.construction.condition_space import ConditionSpace

SECONDS_PER_HOUR = 3600.0


def candidate_hours(pool: Sequence[Mapping[str, Any]]) -> list[float]:
    return [float(row["duration_seconds"]) / SECONDS_PER_HOUR for row in pool]


@dataclass(frozen=True)
class Constraint:
    name: str
    terms: dict[int, float]  # candidate index -> coefficient of x_i
    sense: str  # ">=" or "<="
    rhs: float
    unit: str
    meaning: str
    total: float = 0.0  # coefficient of T, the total selected hours


def _at_least(name: str, ids: Sequence[int], required: int, group: str) -> list[Constraint]:
    """``sum_{i in ids} x_i >= min(required, len(ids))``, or nothing when that is 0."""
    need = min(required, len(ids))
    if need <= 0:
        return []
    meaning = f"at least {need} recordings in {group}"
    return [Constraint(name, dict.fromkeys(ids, 1.0), ">=", need, "recordings", meaning)]


@dataclass(frozen=True)
class SelectionProblem:
    """Maximise ``sum_i U_i x_i`` over binary ``x`` subject to ``constraints``, ``x_i = 1`` for ``fixed``.

    ``hours[i]`` is candidate ``i``'s duration in hours (the coefficient of the
    total-hours variable ``T``).
    """

    utilities: tuple[float, ...]
    hours: tuple[float, ...]
    constraints: tuple[Constraint, ...]
    fixed: frozenset[int] = frozenset()

    @property
    def size(self) -> int:
        return len(self.utilities)

    def objective(self, chosen: Sequence[int] | set[int]) -> float:
        return sum(self.utilities[i] for i in chosen)

    def with_constraints(self, constraints: Sequence[Constraint]) -> SelectionProblem:
        return replace(self, constraints=tuple(constraints))


def build_problem(
    pool: Sequence[Mapping[str, Any]],
    utilities: Sequence[float],
    space: ConditionSpace,
    settings: Mapping[str, Any],
    keep: Sequence[str] = (),
    replacement_groups: Sequence[tuple[Sequence[str], int]] = (),
) -> SelectionProblem:
    """The problem for a candidate pool (rows in order), with kept ids fixed at 1."""
    index = {row["recording_id"]: i for i, row in enumerate(pool)}
    return SelectionProblem(
        tuple(float(u) for u in utilities),
        tuple(candidate_hours(pool)),
        tuple(build_constraints(pool, space, settings, replacement_groups)),
        frozenset(index[r] for r in keep if r in index),
    )


def _total_hours(settings: Mapping[str, Any]) -> list[Constraint]:
    low, high = settings["min_hours"], settings["max_hours"]
    return [
        Constraint("total_hours_min", {}, ">=", low, "h", f"at least {low} h selected", total=1.0),
        Constraint("total_hours_max", {}, "<=", high, "h", f"at most {high} h selected", total=1.0),
    ]


def _coverage(
    pool: Sequence[Mapping[str, Any]],
    hours: Sequence[float],
    space: ConditionSpace,
    settings: Mapping[str, Any],
) -> list[Constraint]:
    """At least k recordings and h hours in every range the pool offers (or all it offers)."""
    members: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(pool):
        for label in row["conditions"].values():
            members[label].append(i)
    constraints = []
    for axis in space.axes:
        for label in axis.labels:
            ids = members.get(label, [])
            if not ids:
                continue
            constraints += _at_least(f"count_{label}", ids, settings["min_count_per_range"], label)
            need_hours = min(settings["min_hours_per_range"], sum(hours[i] for i in ids))
            if need_hours > 0:
                terms = {i: hours[i] for i in ids}
                meaning = f"at least {need_hours:.4g} h in {label}"
                constraints.append(
                    Constraint(f"hours_{label}", terms, ">=", need_hours, "h", meaning)
                )
    return constraints


def _source_shares(
    pool: Sequence[Mapping[str, Any]], hours: Sequence[float], share: float
) -> list[Constraint]:
    """``sum_{i in s} h_i x_i <= share * T`` per source, when the share is below 1."""
    if share >= 1:
        return []
    by_source: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(pool):
        by_source[row["source_dataset"]].append(i)
    return [
        Constraint(
            f"source_share_{source}",
            {i: hours[i] for i in by_source[source]},
            "<=",
            0.0,
            "h",
            f"{source} at most {share:.0%} of selected hours",
            total=-share,
        )
        for source in sorted(by_source)
    ]


def build_constraints(
    pool: Sequence[Mapping[str, Any]],
    space: ConditionSpace,
    settings: Mapping[str, Any],
    replacement_groups: Sequence[tuple[Sequence[str], int]] = (),
) -> list[Constraint]:
    """Every constraint of the program, in a fixed order (see :mod:`.solve` for the formulation)."""
    hours = candidate_hours(pool)
    index = {row["recording_id"]: i for i, row in enumerate(pool)}
    constraints = _total_hours(settings) + _coverage(pool, hours, space, settings)
    constraints += _source_shares(pool, hours, settings["max_source_share"])
    for key, column in (("min_per_language", "language"), ("min_per_scenario", "scenario")):
        for value, required in sorted(settings.get(key, {}).items()):
            matching = [i for i, row in enumerate(pool) if row.get(column) == value]
            constraints += _at_least(f"{column}_{value}", matching, required, value)
    for number, (neighbours, count) in enumerate(replacement_groups):
        terms = {index[r]: 1.0 for r in neighbours if r in index}
        meaning = f"{count} replacement(s) among {len(terms)} closest-profile candidates"
        constraints.append(
            Constraint(f"replace_{number}", terms, ">=", count, "recordings", meaning)
        )
    return constraints
