"""When the selection constraints cannot all hold: the smallest relaxation that would work."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msbench.benchmark.selection.model import build_model, solver_for
from msbench.benchmark.selection.problem import SelectionProblem


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


def explain_infeasibility(
    problem: SelectionProblem, settings: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Smallest total violation (elastic re-solve): which constraints give way, by how much."""
    model, _, violations = build_model(problem, elastic=True)
    model.solve(solver_for(settings))
    by_name = {c.name: c for c in problem.constraints}
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
