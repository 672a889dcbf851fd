"""An item in the making (:class:`Draft`), its options, and its final JSONL row.

**Options.** Up to five, exactly one correct; distractors are distinct from the
answer and from each other after normalisation (:func:`msbench.probes.text.normalise`).
**Answer positions** are balanced per family: the ``k``-th item of a family with
``n`` options puts its answer at ``order[k mod n]``, ``order`` a seeded
permutation of ``0..n-1`` (so over a family the positions differ in count by at
most one per option count); the distractors fill the other places in a seeded
shuffle.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from msbench.probes.evidence import Evidence, Snippet
from msbench.probes.text import normalise

LETTERS = "ABCDE"


@dataclass(kw_only=True)
class Draft:
    """An item before its options are placed; ``derivation`` says how the answer follows."""

    subtask: str
    question: str
    answer: str
    distractors: list[str]
    evidence: list[Evidence]
    derivation: dict[str, Any]
    quoted: list[str] = field(default_factory=list)
    reference: Snippet | None = None  # the voice a question is about (VL, VCA)
    voices: list[Snippet] = field(default_factory=list)  # option voices, answer first (CVA)
    speakers: list[str] = field(default_factory=list)  # who said each line option, answer first
    family: str = ""  # its family's code, stamped by the Family that drafted it (families.py)


def distinct(answer: str, candidates: list[str], count: int) -> list[str]:
    """Up to ``count`` candidates, distinct from the answer and each other after normalisation.

    >>> distinct("Yes, sure", ["yes sure", "No", "no!", "maybe"], 4)
    ['No', 'maybe']
    """
    seen = {normalise(answer)}
    kept = []
    for candidate in candidates:
        key = normalise(candidate)
        if key and key not in seen:
            seen.add(key)
            kept.append(candidate)
        if len(kept) == count:
            break
    return kept


def count_options(n: int, rng: random.Random, lowest: int = 1) -> list[str]:
    """Four wrong counts: a window of five consecutive counts holding ``n`` at a seeded place.

    (A window centred on the answer would let "pick the middle number" solve every item.)

    >>> count_options(3, random.Random(1))
    ['2', '4', '5', '6']
    """
    start = max(lowest, n - rng.randrange(5))
    return [str(c) for c in range(start, start + 5) if c != n]


class Placer:
    """Balanced answer positions per (family, option count), seeded."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.counts: dict[tuple[str, int], int] = defaultdict(int)

    def place(self, draft: Draft, key: str) -> tuple[list[int], int]:
        """``(order, answer_idx)``: option k shows draft option ``order[k]`` (0 = the answer)."""
        n = 1 + len(draft.distractors)
        rng = random.Random(f"{self.seed}:{draft.family}:{n}")
        positions = list(range(n))
        rng.shuffle(positions)
        k = self.counts[(draft.family, n)]
        self.counts[(draft.family, n)] += 1
        answer_idx = positions[k % n]
        others = list(range(1, n))
        random.Random(f"{self.seed}:{key}").shuffle(others)
        order = others[:answer_idx] + [0] + others[answer_idx:]
        return order, answer_idx
