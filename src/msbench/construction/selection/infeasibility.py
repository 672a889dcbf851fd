"""When the selection constraints cannot all hold: the smallest relaxation that would work."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msbench.construction.selection.model import build_model, solver_for
from msbench.construction.selection.problem import SelectionProblem


class SelectionInfeasible(RuntimeError):
    """The constraints conflict; ``violations`` lists the smallest relaxation that works."""

    def __init__(self, violations: list[dict[str, Any]], note: str = "") -> None:
        self.violations = violations
        if note:
            super().__init__(f"{note}. Relax it in config/ or add sources.")
            return
        parts = [
            f"{v['constraint']} {'exceeded' if v.get('sense') == '<=' else 'short'} by "
            f"{v['violation']:.4g} {v['unit']} ({v['meaning']})"
            for v in violations
        ]
        super().__init__(
            "the selection constraints cannot all hold; the smallest relaxation that works: "
            + "; ".join(parts)
            + ". Relax these in config/ (selection.*) or widen the pool."
        )


def source_share_conflict(sources: int, share: float) -> str | None:
    """The share cap cannot hold when too few sources can share the hours.

    >>> source_share_conflict(2, 0.25)
    '2 sources cannot each have at most 25% of the selected hours: the smallest share that works is 50% (selection.max_source_share)'
    >>> source_share_conflict(5, 0.25) is None
    True
    """
    if share >= 1 or sources * share >= 1 - 1e-12:
        return None
    return (
        f"{sources} source{'s' if sources != 1 else ''} cannot each have at most {share:.0%} of the "
        f"selected hours: the smallest share that works is {1 / sources:.0%} "
        "(selection.max_source_share)"
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
                    "sense": constraint.sense,
                    "unit": constraint.unit,
                    "meaning": constraint.meaning,
                }
            )
    return found
