"""One row of the banded alignment (:class:`msbench.scoring.matching.banded._Rows`), compiled.

The recurrence of meeteval's time-constrained alignment, row ``i`` from row ``i - 1`` inside a
band, written as the plain loop it is and compiled with numba (a dependency of msbench's
scoring): per cell ``best = min(above + 1, diagonal)`` where the diagonal step is allowed only
when the two words' (collared) times meet, then the insertion chain ``row[j] = min(best[j],
row[j - 1] + 1)``. :func:`next_row` is the same function as the numpy one it replaces, cell for
cell (``tests/unit/test_banded_alignment.py`` checks both against meeteval); the numpy form stays as
the reference the compiled one is tested against.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

#: The diagonal's stand-in where the words' times do not meet (above any reachable cost).
BLOCKED = 4 * 2**40


def _next_row(
    previous: np.ndarray,
    p_lo: int,
    lo: int,
    main: int,
    hi: int,
    border: bool,
    outside: int,
    ref_start: float,
    ref_end: float,
    ref_symbol: int,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
    hyp_symbols: np.ndarray,
) -> np.ndarray:
    row = np.empty(hi - lo, dtype=np.int64)
    if hi == lo:
        return row
    p_hi = p_lo + len(previous)
    first = lo
    if border:
        above = previous[lo - p_lo] if p_lo <= lo < p_hi else outside
        row[0] = above + 1
        first = lo + 1
        left = row[0]
    else:
        left = outside
    prev = left
    for j in range(first, main):
        h = j - 1
        up = previous[j - p_lo] if p_lo <= j < p_hi else outside
        best = up + 1
        if ref_start < hyp_ends[h] and ref_end > hyp_starts[h]:
            corner = previous[h - p_lo] if p_lo <= h < p_hi else outside
            diagonal = corner + (1 if hyp_symbols[h] != ref_symbol else 0)
        else:
            diagonal = BLOCKED
        if diagonal < best:
            best = diagonal
        if prev + 1 < best:
            best = prev + 1
        row[j - lo] = best
        prev = best
    if hi > main:
        start = row[main - lo - 1] if main > lo else left
        for t in range(hi - main):
            row[main - lo + t] = start + t + 1
    return row


@cache
def next_row() -> Callable[..., Any]:
    """:func:`_next_row` compiled (numba is imported when scoring first needs it; the machine
    code is cached beside this module)."""
    from numba import njit

    return njit(cache=True, nogil=True)(_next_row)
