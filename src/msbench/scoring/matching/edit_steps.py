"""The word alignment behind kaldialign's edit-distance counts: cpWER's alignment, step by step.

:mod:`msbench.scoring.matching.edit_counts` carries each cell's insertion, deletion and
substitution counts from the predecessor kaldialign's recurrence chooses (the
diagonal when strictly cheaper than both others, else the deletion when
strictly cheaper than the insertion, else the insertion). Following those same
choices back from the last cell walks the one path whose counts are the ones
reported: this module records each band cell's choice (one byte) and walks it.
So the S, I and D of the steps are, by construction, the cpWER counts
``unit_scores.csv`` holds; ``tests/unit/test_edit_steps.py`` checks them
against kaldialign on seeded cases.

Memory: one byte per band cell, ``(H + 1) x (2E + |R - H| + 1)`` for a cost
``E`` (a 10,000-word speaker pair at 30 % errors: about 60 MB).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import cache

import numpy as np

from msbench.scoring.matching.edit_counts import INF, band, id_counts, token_ids

DIAGONAL, DELETION, INSERTION = 0, 1, 2
#: The band's cells (bytes) above which the steps are not recorded (the caller says so).
MAX_CELLS = 1_500_000_000

Step = tuple[int | None, int | None]  # (reference index, hypothesis index); None: no word


def _choices(ref: np.ndarray, hyp: np.ndarray, bound: int) -> tuple[int, np.ndarray]:
    """The last cell's cost and every band cell's choice (row ``h``, column ``c - h - low``)."""
    rows, cols = len(hyp), len(ref)
    skew = cols - rows
    low, high = (skew - bound + 1) // 2, (skew + bound) // 2
    width = high - low + 1
    choice = np.full((rows + 1, width), INSERTION, dtype=np.uint8)
    cost = np.full(cols + 1, INF, dtype=np.int64)
    for c in range(max(0, low), min(cols, high) + 1):
        cost[c] = c
        choice[0, c - low] = DELETION
    new_cost = np.full(cols + 1, INF, dtype=np.int64)
    for h in range(1, rows + 1):
        lo, hi = max(0, h + low), min(cols, h + high)
        if lo >= 1:
            new_cost[lo - 1] = INF
        if hi + 1 <= cols:
            new_cost[hi + 1] = INF
        start = lo
        if lo == 0:
            new_cost[0] = cost[0] + 1
            choice[h, -h - low] = INSERTION
            start = 1
        word = hyp[h - 1]
        for c in range(start, hi + 1):
            insertion = cost[c] + 1
            deletion = new_cost[c - 1] + 1
            diagonal = cost[c - 1] + (1 if word != ref[c - 1] else 0)
            if diagonal < insertion and diagonal < deletion:
                new_cost[c], choice[h, c - h - low] = diagonal, DIAGONAL
            elif deletion < insertion:
                new_cost[c], choice[h, c - h - low] = deletion, DELETION
            else:
                new_cost[c], choice[h, c - h - low] = insertion, INSERTION
        cost, new_cost = new_cost, cost
    return int(cost[cols]), choice


@cache
def compiled() -> Callable[..., tuple[int, np.ndarray]]:
    """:func:`_choices` compiled with numba (imported when first needed, cached on disk)."""
    from numba import njit

    return njit(cache=True, nogil=True)(_choices)


def edit_steps(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> list[Step]:
    """The steps of kaldialign's path, in order: ``(r, h)`` a match or substitution,
    ``(r, None)`` a deletion, ``(None, h)`` an insertion.

    >>> edit_steps("a b c".split(), "a x c d".split())
    [(0, 0), (1, 1), (2, 2), (None, 3)]
    >>> edit_steps("a b".split(), "b c".split())  # kaldialign's choice: 1 deletion, 1 insertion
    [(0, None), (1, 0), (None, 1)]
    """
    return id_steps(*token_ids(reference, hypothesis))


def id_steps(ref: np.ndarray, hyp: np.ndarray, cost: int | None = None) -> list[Step]:
    """:func:`edit_steps` of two sides given as ids; ``cost``: their edit distance, when known."""
    if not len(ref) or not len(hyp):
        return [(r, None) for r in range(len(ref))] + [(None, h) for h in range(len(hyp))]
    bound = id_counts(ref, hyp)["total"] if cost is None else cost  # the band holds the path
    low, high = band(len(ref), len(hyp), bound)
    width = high - low + 1
    if (len(hyp) + 1) * width > MAX_CELLS:
        raise MemoryError(
            f"the alignment of {len(ref)} x {len(hyp)} words at {bound} errors needs "
            f"{(len(hyp) + 1) * width / 1e9:.1f} GB of choices"
        )
    _, choice = compiled()(ref, hyp, bound)
    steps: list[Step] = []
    h, c = len(hyp), len(ref)
    while h > 0 or c > 0:
        kind = choice[h, c - h - low]
        if kind == DIAGONAL:
            h, c = h - 1, c - 1
            steps.append((c, h))
        elif kind == DELETION:
            c -= 1
            steps.append((c, None))
        else:
            h -= 1
            steps.append((None, h))
    steps.reverse()
    return steps
