"""The LP relaxation of the selection program, solved with HiGHS directly from sparse arrays.

Whichever solver runs the integer program, the relaxation (``0 <= x_i <= 1``)
gives the upper bound that proves the reported gap and the point the
sub-MIP starts from. Passing it to ``highspy`` as one column-wise sparse
matrix takes well under a second for 100,000 candidates, where going through
PuLP's expression objects takes half a minute.

Columns: ``x_0 .. x_{n-1}`` then ``T`` (total selected hours); rows: each
constraint, then ``sum_i h_i x_i - T = 0``. HiGHS minimises, so the costs are
``-U_i``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

from msbench.construction.selection.problem import SelectionProblem


def quiet_highs() -> Any:
    """A ``highspy.Highs``, without the banner HiGHS prints on standard output once per process.

    The banner would land in the middle of a command's JSON output and on the
    terminal even when CBC solves; the version is in ``pip show highspy``.
    """
    import highspy

    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 1)
        try:
            return highspy.Highs()
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def lp_relaxation(problem: SelectionProblem, time_limit: float) -> tuple[float, list[float]] | None:
    """``(bound, x*)`` of the relaxation, or None when it is infeasible."""
    utilities, hours, constraints = problem.utilities, problem.hours, problem.constraints
    import highspy
    from scipy.sparse import csc_matrix

    n = len(utilities)
    rows, cols, values = [], [], []
    for k, c in enumerate(constraints):
        rows += [k] * len(c.terms)
        cols += list(c.terms)
        values += list(c.terms.values())
        if c.total:
            rows.append(k)
            cols.append(n)
            values.append(c.total)
    definition = len(constraints)
    rows += [definition] * (n + 1)
    cols += [*range(n), n]
    values += [*hours, -1.0]
    matrix = csc_matrix((values, (rows, cols)), shape=(definition + 1, n + 1))
    matrix.sum_duplicates()

    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n + 1, definition + 1
    lp.col_cost_ = np.concatenate([-np.asarray(utilities, dtype=float), [0.0]])
    lower = np.zeros(n + 1)
    lower[sorted(problem.fixed)] = 1.0
    lp.col_lower_ = lower
    lp.col_upper_ = np.concatenate([np.ones(n), [highspy.kHighsInf]])
    lp.row_lower_ = np.array(
        [c.rhs if c.sense == ">=" else -highspy.kHighsInf for c in constraints] + [0.0]
    )
    lp.row_upper_ = np.array(
        [c.rhs if c.sense == "<=" else highspy.kHighsInf for c in constraints] + [0.0]
    )
    lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.start_ = matrix.indptr
    lp.a_matrix_.index_ = matrix.indices
    lp.a_matrix_.value_ = matrix.data
    solver = quiet_highs()
    solver.setOptionValue("output_flag", False)
    solver.setOptionValue("threads", 1)
    solver.setOptionValue("time_limit", float(time_limit))
    solver.passModel(lp)
    solver.run()
    if solver.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        return None
    solution = list(solver.getSolution().col_value[:n])
    return -float(solver.getInfo().objective_function_value), solution
