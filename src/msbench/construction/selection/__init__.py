"""Benchmark selection: the integer program, its bound, its start, and QC replacement.

``problem``         the program as data (:class:`SelectionProblem`)
``model``           its PuLP model and the CBC/HiGHS solvers
``lp_bound``        the LP relaxation with HiGHS from sparse arrays (the bound)
``neighbourhood``   a RINS-style sub-MIP around the LP optimum (the start)
``infeasibility``   the elastic re-solve that explains conflicting constraints
``solve``           LP -> sub-MIP -> MIP, and the report
``benchmark``       from a candidate pool and the QC files to the selected rows
"""

from msbench.construction.selection.infeasibility import SelectionInfeasible
from msbench.construction.selection.problem import SelectionProblem, build_problem
from msbench.construction.selection.solve import SelectionResult, solve_selection

__all__ = [
    "SelectionInfeasible",
    "SelectionProblem",
    "SelectionResult",
    "build_problem",
    "solve_selection",
]
