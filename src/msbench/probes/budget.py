"""The text-only rule's arithmetic: a reader's share of an item, a task's running budget, intervals.

A reader's *share* on an item is how often it picks the answer over all option
orders (:func:`solved_share`); a position-dependent tie is chance. A task's
:class:`TextOnlyBudget` sums the shares of its kept items beside chance and
reports each reader's mean with Wilson's 95 % interval.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from msbench.probes.textonly import Baseline


def solved_share(
    baseline: Baseline, options: Sequence[str], answer_idx: int, question: str, lines: Sequence[Any]
) -> float:
    """Share of the option orders in which ``baseline`` picks the answer."""
    orders = list(itertools.permutations(range(len(options))))
    hits = 0
    for order in orders:
        shown = [options[i] for i in order]
        hits += order[baseline(shown, question, lines)] == answer_idx
    return hits / len(orders)


@dataclass
class TextOnlyBudget:
    """One family's running chance and baseline shares (see the module docstring)."""

    margin: float
    items: int = 0
    chance: float = 0.0  # the sum of 1 / options
    hits: dict[str, float] = field(default_factory=dict)  # baseline -> the sum of shares

    def admits(self, shares: dict[str, float], options: int) -> bool:
        limit = self.chance + 1 / options + self.margin * (self.items + 1)
        return all(self.hits.get(b, 0.0) + s <= limit + 1e-9 for b, s in shares.items())

    def add(self, shares: dict[str, float], options: int) -> None:
        self.items += 1
        self.chance += 1 / options
        for name, share in shares.items():
            self.hits[name] = self.hits.get(name, 0.0) + share

    def report(self) -> dict[str, Any]:
        """Mean share per baseline beside chance, with a 95 % interval, over the kept items.

        The interval is Wilson's score interval of the mean share over ``items``
        (a share is an accuracy over option orders, so this is conservative).
        """
        n = max(1, self.items)
        return {
            "items": self.items,
            "chance": round(self.chance / n, 4),
            **{b: round(h / n, 4) for b, h in sorted(self.hits.items())},
            "interval_95": {b: wilson(h / n, self.items) for b, h in sorted(self.hits.items())},
        }


def wilson(share: float, n: int, z: float = 1.96) -> list[float]:
    """Wilson's 95 % score interval of an accuracy ``share`` over ``n`` items.

    >>> wilson(0.25, 100)
    [0.1755, 0.343]
    """
    if n == 0:
        return [0.0, 1.0]
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]
