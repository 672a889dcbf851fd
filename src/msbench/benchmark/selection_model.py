"""The selection integer program as data: constraints, and their PuLP model.

See :mod:`msbench.benchmark.selection` for the formulation.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pulp

from msbench.benchmark.conditions import ConditionSpace

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


def build_constraints(
    pool: Sequence[Mapping[str, Any]],
    space: ConditionSpace,
    settings: Mapping[str, Any],
    replacement_groups: Sequence[tuple[Sequence[str], int]] = (),
) -> list[Constraint]:
    hours = candidate_hours(pool)
    index = {row["recording_id"]: i for i, row in enumerate(pool)}
    constraints = [
        Constraint(
            "total_hours_min",
            {},
            ">=",
            settings["min_hours"],
            "h",
            f"at least {settings['min_hours']} h selected",
            total=1.0,
        ),
        Constraint(
            "total_hours_max",
            {},
            "<=",
            settings["max_hours"],
            "h",
            f"at most {settings['max_hours']} h selected",
            total=1.0,
        ),
    ]
    members: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(pool):
        for label in row["conditions"].values():
            members[label].append(i)
    for axis in space.axes:
        for label in axis.labels:
            ids = members.get(label, [])
            if not ids:
                continue
            constraints += _at_least(f"count_{label}", ids, settings["min_count_per_range"], label)
            offered = sum(hours[i] for i in ids)
            need_hours = min(settings["min_hours_per_range"], offered)
            if need_hours > 0:
                constraints.append(
                    Constraint(
                        f"hours_{label}",
                        {i: hours[i] for i in ids},
                        ">=",
                        need_hours,
                        "h",
                        f"at least {need_hours:.4g} h in {label}",
                    )
                )
    share = settings["max_source_share"]
    by_source: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(pool):
        by_source[row["source_dataset"]].append(i)
    if share < 1:
        for source in sorted(by_source):
            terms = {i: hours[i] for i in by_source[source]}
            constraints.append(
                Constraint(
                    f"source_share_{source}",
                    terms,
                    "<=",
                    0.0,
                    "h",
                    f"{source} at most {share:.0%} of selected hours",
                    total=-share,
                )
            )
    for key, column in (("min_per_language", "language"), ("min_per_scenario", "scenario")):
        for value, required in sorted(settings.get(key, {}).items()):
            ids = [i for i, row in enumerate(pool) if row.get(column) == value]
            constraints += _at_least(f"{column}_{value}", ids, required, value)
    for number, (ids, count) in enumerate(replacement_groups):
        terms = {index[r]: 1.0 for r in ids if r in index}
        constraints.append(
            Constraint(
                f"replace_{number}",
                terms,
                ">=",
                count,
                "recordings",
                f"{count} replacement(s) among {len(terms)} closest-profile candidates",
            )
        )
    return constraints


def solver_for(
    settings: Mapping[str, Any],
    mip: bool = True,
    warm_start: bool = False,
    time_limit: float | None = None,
) -> pulp.LpSolver:
    """CBC (``COIN_CMD``) or HiGHS (highspy) with the configured limits; silent."""
    options: dict[str, Any] = dict(
        msg=False,
        timeLimit=time_limit or settings["time_limit_seconds"],
        threads=settings["threads"],
    )
    if mip:
        options["gapRel"] = settings["relative_gap"]
    if settings["solver"] == "highs":
        return pulp.HiGHS(mip=mip, **options)
    return pulp.COIN_CMD(mip=mip, path=cbc_executable(), warmStart=warm_start, **options)


def cbc_executable() -> str:
    """The CBC binary: one on PATH, else the one bundled in PuLP's wheel."""
    import shutil

    from pulp.apis import coin_api

    return shutil.which("cbc") or coin_api.PULP_CBC_CMD.pulp_cbc_path


def build_model(
    utilities: Sequence[float],
    hours: Sequence[float],
    constraints: Sequence[Constraint],
    fixed: set[int],
    relax: bool = False,
    elastic: bool = False,
) -> tuple[pulp.LpProblem, list[pulp.LpVariable], dict[str, pulp.LpVariable]]:
    """The PuLP model; ``relax`` makes x continuous, ``elastic`` adds one violation per constraint.

    Expressions are built from (variable, coefficient) lists, which PuLP turns
    into its affine expressions without per-term arithmetic: 100,000 candidates
    build in seconds.
    """
    model = pulp.LpProblem("msbench_selection", pulp.LpMinimize if elastic else pulp.LpMaximize)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    x = [pulp.LpVariable(f"x{i}", 0, 1, category) for i in range(len(utilities))]
    for i in fixed:  # after creation: PuLP resets the bounds of binaries to [0, 1]
        x[i].lowBound = 1
    total = pulp.LpVariable("total_hours", 0)
    definition = pulp.LpAffineExpression([(total, -1.0), *zip(x, hours, strict=False)])
    model.addConstraint(
        pulp.LpConstraint(definition, pulp.LpConstraintEQ, "total_hours_definition", 0.0)
    )
    violations: dict[str, pulp.LpVariable] = {}
    for c in constraints:
        terms = list(zip(map(x.__getitem__, c.terms), c.terms.values(), strict=False))
        if c.total:
            terms.append((total, c.total))
        if elastic:
            violations[c.name] = pulp.LpVariable(f"v_{len(violations)}", 0)
            terms.append((violations[c.name], 1.0 if c.sense == ">=" else -1.0))
        sense = pulp.LpConstraintGE if c.sense == ">=" else pulp.LpConstraintLE
        model.addConstraint(pulp.LpConstraint(pulp.LpAffineExpression(terms), sense, c.name, c.rhs))
    if elastic:
        model.setObjective(pulp.LpAffineExpression([(v, 1.0) for v in violations.values()]))
    else:
        model.setObjective(pulp.LpAffineExpression(list(zip(x, utilities, strict=False))))
    return model, x, violations
