"""Rank groups: systems that the comparison cannot tell apart share a letter.

Systems are ordered by their rate (lower is better; ties by id). A group is a maximal run of
consecutive systems in that order no two of which differ significantly (Holm-adjusted p below
alpha on the ranked metric); each run gets a letter, ``a`` for the best. A system in two runs
holds both letters (``ab``): the compact letter display of Tukey's underlining, which is how
SCTK's comparison matrix and the Open ASR leaderboard's users read "tied".
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping


def rank_groups(
    rates: Mapping[str, float | None], different: Callable[[str, str], bool]
) -> dict[str, str]:
    """System id -> its letters; a system without a rate gets ``""``.

    >>> rates = {"x": 10.0, "y": 11.0, "z": 20.0}
    >>> rank_groups(rates, lambda a, b: {a, b} == {"x", "z"})
    {'x': 'a', 'y': 'ab', 'z': 'b'}
    >>> rank_groups(rates, lambda a, b: True)
    {'x': 'a', 'y': 'b', 'z': 'c'}
    """
    ranked = sorted((r, s) for s, r in rates.items() if r is not None)
    order = [s for _, s in ranked]
    runs: list[tuple[int, int]] = []
    for start in range(len(order)):
        end = start
        while end + 1 < len(order) and not any(
            different(order[k], order[end + 1]) for k in range(start, end + 1)
        ):
            end += 1
        if not runs or end > runs[-1][1]:
            runs.append((start, end))
    letters = dict.fromkeys(rates, "")
    for letter, (start, end) in zip(_letters(len(runs)), runs, strict=True):
        for k in range(start, end + 1):
            letters[order[k]] += letter
    return letters


def _letters(n: int) -> list[str]:
    """a, b, ..., z, then aa, ab, ... (more than 26 groups)."""
    alphabet = string.ascii_lowercase
    return [alphabet[k] if k < 26 else alphabet[k // 26 - 1] + alphabet[k % 26] for k in range(n)]
