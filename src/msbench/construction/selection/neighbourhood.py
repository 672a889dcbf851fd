"""A near-optimal start for the integer program, found around its LP relaxation.

The LP optimum ``x*`` of the selection problem is almost integral: at most as
many variables are fractional as there are binding constraints. The hard part
for branch-and-bound is the huge symmetric space of interchangeable
candidates (same profile and source, hence the same utility), not the LP.

So we solve a small sub-MIP (a RINS-style neighbourhood): variables integral
in ``x*`` are fixed at their value, except a *neighbourhood* that stays free:
the fractional variables, the ``NEIGHBOURHOOD`` best unselected candidates by
utility per hour, the ``NEIGHBOURHOOD`` worst selected ones (so swaps are
possible), and for every constraint (each source's share, each range) its
``PER_CONSTRAINT`` best unselected and worst selected members, so that a
source the LP left out can still bring the slack that integrality needs. Fixed variables move into the right-hand sides. The sub-MIP is
solved by the configured solver within a quarter of the time limit (at most
15 s); its solution is
feasible for the full problem, its distance to the LP bound is a proven gap,
and it warm-starts the full MIP. Returns None when the neighbourhood admits no
feasible solution; the full MIP then starts cold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pulp

from msbench.construction.selection.model import build_model, solver_for
from msbench.construction.selection.problem import Constraint, SelectionProblem

NEIGHBOURHOOD = 300
PER_CONSTRAINT = 20
SUB_MIP_SECONDS = 15.0  # at most this long, and at most this share of the time limit:
SUB_MIP_SHARE = 0.25
INTEGRAL = 1e-6


def _best(candidates: np.ndarray, score: np.ndarray, count: int) -> list[int]:
    """The ``count`` candidates of highest score, ties by lowest index (deterministic)."""
    order = np.lexsort((candidates, -score[candidates]))
    return candidates[order[:count]].tolist()


def _free_set(problem: SelectionProblem, lp_values: Sequence[float]) -> list[int]:
    utilities, hours, fixed = problem.utilities, problem.hours, problem.fixed
    per_hour = np.asarray(utilities, dtype=float) / np.maximum(np.asarray(hours, dtype=float), 1e-9)
    values = np.asarray(lp_values, dtype=float)
    movable = np.ones(values.size, dtype=bool)
    movable[sorted(fixed)] = False
    zero = (values <= INTEGRAL) & movable
    one = (values >= 1 - INTEGRAL) & movable
    everyone = np.arange(values.size)
    free = set(np.flatnonzero((values > INTEGRAL) & (values < 1 - INTEGRAL)).tolist())
    free.update(_best(everyone[zero], per_hour, NEIGHBOURHOOD))
    free.update(_best(everyone[one], -per_hour, NEIGHBOURHOOD))
    for c in problem.constraints:  # every constraint gets some free members of its own
        members = np.fromiter(c.terms, dtype=int, count=len(c.terms))
        free.update(_best(members[zero[members]], per_hour, PER_CONSTRAINT))
        free.update(_best(members[one[members]], -per_hour, PER_CONSTRAINT))
    return sorted(free)


def neighbourhood_solution(
    problem: SelectionProblem, lp_values: Sequence[float], settings: Mapping[str, Any]
) -> set[int] | None:
    """A feasible selection near the LP optimum ``lp_values``, or None (see the module docstring)."""
    utilities, hours, fixed = problem.utilities, problem.hours, problem.fixed
    free = _free_set(problem, lp_values)
    position = {i: k for k, i in enumerate(free)}
    ones = {i for i, v in enumerate(lp_values) if v >= 1 - INTEGRAL and i not in position} | (
        fixed - set(position)
    )
    fixed_hours = sum(hours[i] for i in ones)
    reduced = []
    for c in problem.constraints:
        constant = sum(value for i, value in c.terms.items() if i in ones) + c.total * fixed_hours
        terms = {position[i]: value for i, value in c.terms.items() if i in position}
        reduced.append(
            Constraint(c.name, terms, c.sense, c.rhs - constant, c.unit, c.meaning, c.total)
        )
    sub_problem = SelectionProblem(
        tuple(utilities[i] for i in free),
        tuple(hours[i] for i in free),
        tuple(reduced),
        frozenset(position[i] for i in fixed if i in position),
    )
    model, x, _ = build_model(sub_problem)
    budget = min(SUB_MIP_SECONDS, SUB_MIP_SHARE * settings["time_limit_seconds"])
    status = model.solve(solver_for(settings, time_limit=budget))
    if pulp.LpStatus[status] != "Optimal" or any(v.value() is None for v in x):
        return None
    return ones | {free[k] for k, v in enumerate(x) if v.value() > 0.5}
