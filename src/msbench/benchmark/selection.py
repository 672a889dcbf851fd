"""Subset selection as an integer program (PuLP; CBC by default, HiGHS selectable).

Variables ``x_i in {0, 1}`` per candidate ``i`` (hours ``h_i``, utility ``U_i``).

maximise    sum_i U_i x_i
subject to  total_hours_min/max:   H_min <= sum_i h_i x_i <= H_max
            count_<range>:         sum_{i in r} x_i   >= min(k, n_r)        for every range r
            hours_<range>:         sum_{i in r} h_i x_i >= min(h, H_r)      of every axis
            source_share_<s>:      sum_{i in s} h_i x_i <= share * sum_i h_i x_i
            language_<l>, scenario_<c>: sum x_i >= min(required, available)
            keep_<id>:             x_i = 1 for recordings kept from an earlier selection
            replace_<k>:           sum_{i in N_k} x_i >= m_k, N_k the closest-profile
                                   candidates of m_k quality-control rejections

``n_r``/``H_r`` are what the pool offers in range ``r``, so coverage asks for
no more than exists. When the constraints still cannot all hold, the same
model is re-solved in *elastic* form (one non-negative violation variable per
constraint, minimising the total violation) and :class:`SelectionInfeasible`
names each violated constraint and by how much.

The LP relaxation is solved with HiGHS directly (:mod:`msbench.benchmark.lp_bound`),
the sub-MIP and the full MIP with the configured solver through PuLP.
Two gap statements are reported: ``gap_vs_lp_bound = (LP bound - objective) /
objective``, always a valid (conservative) bound on the distance to the
optimum; and whether the solver itself proved its relative-gap target
(CBC/HiGHS stop with "optimal within tolerance"). ``gap_proven_within_target``
holds when either does.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pulp

from msbench.benchmark.conditions import ConditionSpace
from msbench.benchmark.lp_bound import lp_relaxation
from msbench.benchmark.rounding import neighbourhood_solution
from msbench.benchmark.selection_model import (
    Constraint,
    build_constraints,
    build_model,
    candidate_hours,
    solver_for,
)


class SelectionInfeasible(RuntimeError):
    """The constraints conflict; ``violations`` lists the smallest relaxation that works."""

    def __init__(self, violations: list[dict[str, Any]]) -> None:
        self.violations = violations
        parts = [
            f"{v['constraint']} short by {v['violation']:.4g} {v['unit']} ({v['meaning']})"
            for v in violations
        ]
        super().__init__(
            "the selection constraints cannot all hold; the smallest relaxation that works: "
            + "; ".join(parts)
            + ". Relax these in config/ (selection.*) or widen the pool."
        )


@dataclass
class SelectionResult:
    selected: list[str]
    report: dict[str, Any] = field(default_factory=dict)


def explain_infeasibility(
    utilities: Sequence[float],
    hours: Sequence[float],
    constraints: Sequence[Constraint],
    fixed: set[int],
    settings: Mapping[str, Any],
) -> list[dict[str, Any]]:
    """Smallest total violation (elastic re-solve): which constraints give way, by how much."""
    model, _, violations = build_model(utilities, hours, constraints, fixed, elastic=True)
    model.solve(solver_for(settings))
    by_name = {c.name: c for c in constraints}
    found = []
    for name, variable in violations.items():
        amount = variable.value() or 0.0
        if amount > 1e-6:
            constraint = by_name[name]
            found.append(
                {
                    "constraint": name,
                    "violation": round(amount, 6),
                    "unit": constraint.unit,
                    "meaning": constraint.meaning,
                }
            )
    return found


def _gap(bound: float, objective: float) -> float:
    """Relative distance to the LP bound: a proven bound on the distance to the optimum."""
    return max(0.0, bound - objective) / objective if objective > 0 else 0.0


def solve_selection(
    pool: Sequence[Mapping[str, Any]],
    utilities: Sequence[float],
    space: ConditionSpace,
    settings: Mapping[str, Any],
    keep: Sequence[str] = (),
    replacement_groups: Sequence[tuple[Sequence[str], int]] = (),
) -> SelectionResult:
    """LP relaxation (bound), a sub-MIP around it, then the full MIP (warm-started) if needed.

    The full MIP is skipped when the sub-MIP's solution is already within the
    relative-gap target of the LP bound: that is a proof, and all the MIP could add.
    """
    index = {row["recording_id"]: i for i, row in enumerate(pool)}
    fixed = {index[r] for r in keep if r in index}
    constraints = build_constraints(pool, space, settings, replacement_groups)
    hours = candidate_hours(pool)
    started = time.perf_counter()
    relaxation = lp_relaxation(utilities, hours, constraints, fixed, settings["time_limit_seconds"])
    if relaxation is None:
        raise SelectionInfeasible(
            explain_infeasibility(utilities, hours, constraints, fixed, settings)
        )
    bound, lp_values = relaxation
    start = neighbourhood_solution(lp_values, utilities, hours, constraints, fixed, settings)
    relaxed_at = time.perf_counter()

    candidates = []
    if start is not None:
        candidates.append(("lp_neighbourhood", sorted(start)))
    solver_status, solution_status = "not run", "the LP-neighbourhood solution meets the gap target"
    if start is None or _gap(bound, sum(utilities[i] for i in start)) > settings["relative_gap"]:
        model, x, _ = build_model(utilities, hours, constraints, fixed)
        if start is not None:
            for i, variable in enumerate(x):
                variable.setInitialValue(1 if i in start else 0)
        remaining = max(1.0, settings["time_limit_seconds"] - (time.perf_counter() - started))
        status = model.solve(
            solver_for(settings, warm_start=start is not None, time_limit=remaining)
        )
        solver_status = pulp.LpStatus[status]
        solution_status = pulp.LpSolution.get(model.sol_status, str(model.sol_status))
        if all(v.value() is not None for v in x) and solver_status == "Optimal":
            solution = [i for i, v in enumerate(x) if v.value() > 0.5]
            proved = model.sol_status == pulp.LpSolutionOptimal
            candidates.insert(0, ("solver_proved" if proved else "solver", solution))
    solved_at = time.perf_counter()
    if not candidates:
        violations = explain_infeasibility(utilities, hours, constraints, fixed, settings)
        if violations:
            raise SelectionInfeasible(violations)
        raise RuntimeError(f"solver returned {solver_status} without a solution")
    origin, chosen = max(candidates, key=lambda item: sum(utilities[i] for i in item[1]))
    objective = math.fsum(utilities[i] for i in chosen)
    selected_set = set(chosen)
    selected_hours = math.fsum(hours[i] for i in chosen)
    gap = _gap(bound, objective)
    solver_proved = origin == "solver_proved"
    origin = "solver" if origin.startswith("solver") else origin
    report = {
        "solver": settings["solver"],
        "solver_status": solver_status,
        "solution_status": solution_status,
        "incumbent_from": origin,
        "time_limit_seconds": settings["time_limit_seconds"],
        "relative_gap_target": settings["relative_gap"],
        "objective": round(objective, 6),
        "lp_bound": round(bound, 6),
        "gap_vs_lp_bound": round(gap, 8),
        "solver_proved_gap_target": solver_proved,
        "gap_proven_within_target": solver_proved or gap <= settings["relative_gap"] + 1e-12,
        "relaxation_seconds": round(relaxed_at - started, 3),
        "solve_seconds": round(solved_at - started, 3),
        "candidates": len(pool),
        "selected": len(chosen),
        "selected_hours": round(selected_hours, 4),
        "constraints": [_slack(c, selected_set, selected_hours) for c in constraints],
    }
    return SelectionResult(sorted(pool[i]["recording_id"] for i in chosen), report)


def _slack(constraint: Constraint, selected: set[int], total_hours: float) -> dict[str, Any]:
    lhs = (
        math.fsum(c for i, c in constraint.terms.items() if i in selected)
        + constraint.total * total_hours
    )
    slack = lhs - constraint.rhs if constraint.sense == ">=" else constraint.rhs - lhs
    return {
        "name": constraint.name,
        "sense": constraint.sense,
        "rhs": round(constraint.rhs, 6),
        "value": round(lhs, 6),
        "slack": round(slack, 6),
        "unit": constraint.unit,
    }
