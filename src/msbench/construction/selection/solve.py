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

The LP relaxation is solved with HiGHS directly (:mod:`msbench.construction.selection.lp_bound`),
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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pulp

from msbench.construction.selection.infeasibility import SelectionInfeasible, explain_infeasibility
from msbench.construction.selection.lp_bound import lp_relaxation
from msbench.construction.selection.model import build_model, solver_for
from msbench.construction.selection.neighbourhood import neighbourhood_solution
from msbench.construction.selection.problem import Constraint, SelectionProblem


@dataclass
class SelectionResult:
    selected: list[int]
    report: dict[str, Any] = field(default_factory=dict)


def _stop_reason(outcome: _MipOutcome, proof: str, gap: float, target: float) -> str:
    """One sentence: why the selection stopped, and what the reported gap is proven against."""
    if outcome.solver_status == "not run":
        return (
            f"the LP-neighbourhood solution is within {gap:.4%} of the LP relaxation bound "
            f"(target {target:.4%}), a proof: the MIP solver was not needed"
        )
    if proof == "lp_bound":
        return f"the solution is within {gap:.4%} of the LP relaxation bound (target {target:.4%})"
    if proof == "solver":
        return (
            f"the solver proved its own gap target {target:.4%} ({outcome.solution_status}); "
            f"{gap:.4%} is the more conservative distance to the LP relaxation bound"
        )
    return (
        f"the solver stopped ({outcome.solution_status}) without proving the gap target; "
        f"the best solution found is within {gap:.4%} of the LP relaxation bound"
    )


def _gap(bound: float, objective: float) -> float:
    """Relative distance to the LP bound: a proven bound on the distance to the optimum."""
    return max(0.0, bound - objective) / objective if objective > 0 else 0.0


@dataclass
class _MipOutcome:
    solver_status: str = "not run"
    solution_status: str = "the LP-neighbourhood solution meets the gap target"
    solution: list[int] | None = None
    proved: bool = False


def _solve_mip(
    problem: SelectionProblem, start: set[int] | None, settings: Mapping[str, Any], elapsed: float
) -> _MipOutcome:
    """The full MIP, warm-started from ``start`` when there is one."""
    model, x, _ = build_model(problem)
    if start is not None:
        for i, variable in enumerate(x):
            variable.setInitialValue(1 if i in start else 0)
    remaining = max(1.0, settings["time_limit_seconds"] - elapsed)
    status = model.solve(solver_for(settings, warm_start=start is not None, time_limit=remaining))
    outcome = _MipOutcome(
        pulp.LpStatus[status], pulp.LpSolution.get(model.sol_status, str(model.sol_status))
    )
    if all(v.value() is not None for v in x) and outcome.solver_status == "Optimal":
        outcome.solution = [i for i, v in enumerate(x) if v.value() > 0.5]
        outcome.proved = model.sol_status == pulp.LpSolutionOptimal
    return outcome


def solve_selection(problem: SelectionProblem, settings: Mapping[str, Any]) -> SelectionResult:
    """LP relaxation (bound), a sub-MIP around it, then the full MIP (warm-started) if needed.

    The full MIP is skipped when the sub-MIP's solution is already within the
    relative-gap target of the LP bound: that is a proof, and all the MIP could add.
    Returns the chosen candidate indices (sorted) and the report.
    """
    started = time.perf_counter()
    relaxation = lp_relaxation(problem, settings["time_limit_seconds"])
    if relaxation is None:
        raise SelectionInfeasible(explain_infeasibility(problem, settings))
    bound, lp_values = relaxation
    start = neighbourhood_solution(problem, lp_values, settings)
    relaxed_at = time.perf_counter()
    candidates = []
    if start is not None:
        candidates.append(("lp_neighbourhood", sorted(start)))
    outcome = _MipOutcome()
    if start is None or _gap(bound, problem.objective(start)) > settings["relative_gap"]:
        outcome = _solve_mip(problem, start, settings, time.perf_counter() - started)
        if outcome.solution is not None:
            candidates.insert(0, ("solver", outcome.solution))
    solved_at = time.perf_counter()
    if not candidates:
        violations = explain_infeasibility(problem, settings)
        if violations:
            raise SelectionInfeasible(violations)
        raise RuntimeError(f"solver returned {outcome.solver_status} without a solution")
    origin, chosen = max(candidates, key=lambda item: problem.objective(item[1]))
    timing = (round(relaxed_at - started, 3), round(solved_at - started, 3))
    report = _report(problem, settings, sorted(chosen), bound, origin, outcome, timing)
    return SelectionResult(sorted(chosen), report)


def _report(
    problem: SelectionProblem,
    settings: Mapping[str, Any],
    chosen: list[int],
    bound: float,
    origin: str,
    outcome: _MipOutcome,
    timing: tuple[float, float],
) -> dict[str, Any]:
    objective = math.fsum(problem.utilities[i] for i in chosen)
    selected_hours = math.fsum(problem.hours[i] for i in chosen)
    gap = _gap(bound, objective)
    target = settings["relative_gap"]
    by_lp = gap <= target + 1e-12
    by_solver = origin == "solver" and outcome.proved
    proof = "lp_bound" if by_lp else "solver" if by_solver else "none"
    return {
        "solver": settings["solver"],
        "solver_run": outcome.solver_status != "not run",
        "solver_status": outcome.solver_status,
        "solution_status": outcome.solution_status,
        "incumbent_from": origin,
        "time_limit_seconds": settings["time_limit_seconds"],
        "relative_gap_target": target,
        "objective": round(objective, 6),
        "lp_bound": round(bound, 6),
        "gap_vs_lp_bound": round(gap, 8),
        "gap_proven_by": proof,
        "gap_proven_within_target": proof != "none",
        "stopped_because": _stop_reason(outcome, proof, gap, target),
        "relaxation_seconds": timing[0],
        "solve_seconds": timing[1],
        "candidates": problem.size,
        "selected": len(chosen),
        "selected_hours": round(selected_hours, 4),
        "constraints": [_slack(c, set(chosen), selected_hours) for c in problem.constraints],
    }


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
