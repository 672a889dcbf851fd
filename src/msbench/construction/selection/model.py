"""The PuLP model of a :class:`~msbench.construction.selection.problem.SelectionProblem`, and its solvers.

See :mod:`msbench.construction.selection.solve` for the formulation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pulp

from msbench.construction.selection.problem import SelectionProblem


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
    problem: SelectionProblem, relax: bool = False, elastic: bool = False
) -> tuple[pulp.LpProblem, list[pulp.LpVariable], dict[str, pulp.LpVariable]]:
    """The PuLP model; ``relax`` makes x continuous, ``elastic`` adds one violation per constraint.

    Expressions are built from (variable, coefficient) lists, which PuLP turns
    into its affine expressions without per-term arithmetic: 100,000 candidates
    build in seconds.
    """
    utilities, hours, constraints = problem.utilities, problem.hours, problem.constraints
    model = pulp.LpProblem("msbench_selection", pulp.LpMinimize if elastic else pulp.LpMaximize)
    category = pulp.LpContinuous if relax else pulp.LpBinary
    x = [pulp.LpVariable(f"x{i}", 0, 1, category) for i in range(len(utilities))]
    for i in problem.fixed:  # after creation: PuLP resets the bounds of binaries to [0, 1]
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
