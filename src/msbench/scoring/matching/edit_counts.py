"""kaldialign's word edit distance and its S/I/D counts, computed in a band (meeteval's
``_siso_error_rate`` calls ``kaldialign.edit_distance``; this gives the same four numbers).

kaldialign (``LevenshteinEditDistance``) fills every cell of the ``(H + 1) x (R + 1)`` matrix
and carries each cell's insertion, deletion and substitution counts from the predecessor it
chooses: the diagonal when it is strictly cheaper than both others, else the deletion when it is
strictly cheaper than the insertion, else the insertion. A 40,000-token session is 1.6e9 cells
(8.6 s of a 160-minute unit's scoring). Here the same recurrence with the same choices runs only
on the diagonals ``d = r - h`` with ``|d| + |d - (R - H)| <= E``: a cell outside lies on no
path of cost ``<= E``, so for ``E`` at or above the minimal cost every cell on the chosen path
and every predecessor the choice could take is exact, and the counts at the last cell are
kaldialign's. ``E`` starts at a guess and doubles until the banded cost is within it (the
banded cost is then the minimum). Compiled with numba; equal to kaldialign on seeded cases
(``tests/unit/test_edit_counts.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from functools import cache

import numpy as np

INF = 1 << 60


def _banded(ref: np.ndarray, hyp: np.ndarray, bound: int) -> tuple[int, int, int, int]:
    """(cost, insertions, deletions, substitutions) at the last cell, inside the band."""
    rows, cols = len(hyp), len(ref)
    skew = cols - rows
    low, high = (skew - bound + 1) // 2, (skew + bound) // 2  # ceil, floor of (skew -+ bound) / 2
    size = cols + 1
    cost = np.full(size, INF, dtype=np.int64)
    ins = np.zeros(size, dtype=np.int64)
    dels = np.zeros(size, dtype=np.int64)
    subs = np.zeros(size, dtype=np.int64)
    for c in range(max(0, low), min(cols, high) + 1):
        cost[c], dels[c] = c, c
    new_cost, new_ins = np.full(size, INF, dtype=np.int64), np.zeros(size, dtype=np.int64)
    new_dels, new_subs = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
    for h in range(1, rows + 1):
        lo, hi = max(0, h + low), min(cols, h + high)
        if lo >= 1:
            new_cost[lo - 1] = INF
        if hi + 1 <= cols:
            new_cost[hi + 1] = INF
        start = lo
        if lo == 0:
            new_cost[0], new_ins[0], new_dels[0], new_subs[0] = (
                cost[0] + 1,
                ins[0] + 1,
                dels[0],
                subs[0],
            )
            start = 1
        word = hyp[h - 1]
        for c in range(start, hi + 1):
            insertion = cost[c] + 1
            deletion = new_cost[c - 1] + 1
            wrong = 1 if word != ref[c - 1] else 0
            diagonal = cost[c - 1] + wrong
            if diagonal < insertion and diagonal < deletion:
                new_cost[c], new_ins[c], new_dels[c] = diagonal, ins[c - 1], dels[c - 1]
                new_subs[c] = subs[c - 1] + wrong
            elif deletion < insertion:
                new_cost[c], new_ins[c] = deletion, new_ins[c - 1]
                new_dels[c], new_subs[c] = new_dels[c - 1] + 1, new_subs[c - 1]
            else:
                new_cost[c], new_ins[c], new_dels[c], new_subs[c] = (
                    insertion,
                    ins[c] + 1,
                    dels[c],
                    subs[c],
                )
        cost, new_cost = new_cost, cost
        ins, new_ins = new_ins, ins
        dels, new_dels = new_dels, dels
        subs, new_subs = new_subs, subs
    return int(cost[cols]), int(ins[cols]), int(dels[cols]), int(subs[cols])


@cache
def compiled() -> Callable[..., tuple[int, int, int, int]]:
    """:func:`_banded` compiled with numba (imported when first needed, cached on disk)."""
    from numba import njit

    return njit(cache=True, nogil=True)(_banded)


def banded_counts(ref: np.ndarray, hyp: np.ndarray, bound: int) -> tuple[int, int, int, int]:
    return compiled()(ref, hyp, bound)


def band(columns: int, rows: int, bound: int) -> tuple[int, int]:
    """The band's diagonals ``d = c - h`` (lowest, highest) for a cost bound, as the kernels
    compute them: ``|d| + |d - (columns - rows)| <= bound``.

    >>> band(5, 3, 2)
    (0, 2)
    """
    skew = columns - rows
    return (skew - bound + 1) // 2, (skew + bound) // 2


def token_ids(
    reference: Sequence[Hashable], hypothesis: Sequence[Hashable]
) -> tuple[np.ndarray, np.ndarray]:
    """Both sides as int64 ids, one id per distinct token."""
    ids: dict[Hashable, int] = {}
    ref = np.fromiter((ids.setdefault(w, len(ids)) for w in reference), dtype=np.int64)
    hyp = np.fromiter((ids.setdefault(w, len(ids)) for w in hypothesis), dtype=np.int64)
    return ref, hyp


def edit_counts(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> dict[str, int]:
    """kaldialign's ``edit_distance`` result (``total``, ``ins``, ``del``, ``sub``), exactly.

    >>> edit_counts("a b c".split(), "a x c d".split())
    {'total': 2, 'ins': 1, 'del': 0, 'sub': 1}
    >>> edit_counts("a b".split(), "b c".split())  # two optimal paths: kaldialign's choice
    {'total': 2, 'ins': 1, 'del': 1, 'sub': 0}
    """
    return id_counts(*token_ids(reference, hypothesis))


def id_counts(ref: np.ndarray, hyp: np.ndarray, cost: int | None = None) -> dict[str, int]:
    """:func:`edit_counts` of two sides already given as ids (:func:`token_ids`); ``cost``:
    their edit distance when the caller knows it (one banded pass instead of a guess that
    may double)."""
    floor = abs(len(ref) - len(hyp))
    if cost is not None:
        bound = max(floor, cost)
    else:
        bound = max(floor, 16, math.ceil(0.1 * max(len(ref), len(hyp))))
    while True:
        bound = min(bound, len(ref) + len(hyp))
        cost, ins, dels, subs = banded_counts(ref, hyp, bound)
        if cost <= bound:
            return {"total": cost, "ins": ins, "del": dels, "sub": subs}
        bound = max(2 * bound, cost if cost < INF else 0)
