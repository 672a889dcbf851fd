"""meeteval's time-constrained word edit distance (0.4.3, ``levenshtein.h``), compiled with
numba: :mod:`msbench.scoring.matching.distances` states what is transcribed and why."""

from __future__ import annotations

import numpy as np
from numba import njit

#: meeteval's ``unsigned int`` (levenshtein.h).
UINT_MAX = 2**32 - 1


@njit(cache=True, nogil=True)
def _sorted(starts: np.ndarray) -> bool:
    """meeteval's ``_timings_sorted``: starts non-decreasing, beginning at or after 0."""
    last = 0.0
    for start in starts:
        if start < last:
            return False
        last = start
    return True


@njit(cache=True, nogil=True)
def _overlaps(a_start: float, a_end: float, b_start: float, b_end: float) -> bool:
    return a_start < b_end and a_end > b_start


@njit(cache=True, nogil=True)
def _pruned(
    ref: np.ndarray,
    hyp: np.ndarray,
    ref_starts: np.ndarray,
    ref_ends: np.ndarray,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
) -> int:
    """``time_constrained_levenshtein_distance_v2_`` (unit costs), unsigned 32-bit sums."""
    n = len(hyp)
    row = np.full(n + 1, UINT_MAX, dtype=np.int64)
    row[0] = 0
    ref_end_time = 0.0
    hyp_start = 0
    hyp_index = 0
    for r in range(len(ref)):
        ref_symbol = ref[r]
        ref_start, ref_end = ref_starts[r], ref_ends[r]
        ref_end_time = max(ref_end, ref_end_time)
        diagonal = row[hyp_start]
        row[hyp_start] = (row[hyp_start] + 1) & UINT_MAX
        allow_shift = True
        hyp_index = hyp_start
        while hyp_index < n:
            h_start, h_end = hyp_starts[hyp_index], hyp_ends[hyp_index]
            if allow_shift:
                if ref_start > h_end:
                    hyp_start += 1
                else:
                    allow_shift = False
            up = min(row[hyp_index + 1], (diagonal + 1) & UINT_MAX)
            if _overlaps(ref_start, ref_end, h_start, h_end):
                step = diagonal + (0 if hyp[hyp_index] == ref_symbol else 1)
            else:
                step = diagonal + 2
            row[hyp_index + 1] = min(
                min((row[hyp_index] + 1) & UINT_MAX, (up + 1) & UINT_MAX), step & UINT_MAX
            )
            diagonal = up
            if ref_end_time < h_start:
                break
            hyp_index += 1
    while hyp_index < n:
        row[hyp_index + 1] = (row[hyp_index] + 1) & UINT_MAX
        hyp_index += 1
    return int(row[n])


@njit(cache=True, nogil=True)
def _unoptimized(
    ref: np.ndarray,
    hyp: np.ndarray,
    ref_starts: np.ndarray,
    ref_ends: np.ndarray,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
) -> int:
    """``time_constrained_levenshtein_distance_unoptimized_`` (unit costs): every cell."""
    n = len(hyp)
    row = np.arange(n + 1, dtype=np.int64)
    for r in range(len(ref)):
        ref_symbol = ref[r]
        ref_start, ref_end = ref_starts[r], ref_ends[r]
        diagonal = row[0]
        row[0] += 1
        for h in range(1, n + 1):
            up = row[h]
            best = min(row[h - 1] + 1, up + 1)
            if _overlaps(ref_start, ref_end, hyp_starts[h - 1], hyp_ends[h - 1]):
                best = min(best, diagonal + (0 if hyp[h - 1] == ref_symbol else 1))
            row[h] = best
            diagonal = up
    return int(row[n])


@njit(cache=True, nogil=True)
def time_constrained(
    ref: np.ndarray,
    hyp: np.ndarray,
    ref_starts: np.ndarray,
    ref_ends: np.ndarray,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
) -> int:
    """meeteval's dispatch: empty sides first, then pruned when both sides' starts are sorted."""
    if len(ref) == 0:
        return len(hyp)
    if len(hyp) == 0:
        return len(ref)
    if _sorted(ref_starts) and _sorted(hyp_starts):
        return _pruned(ref, hyp, ref_starts, ref_ends, hyp_starts, hyp_ends)
    return _unoptimized(ref, hyp, ref_starts, ref_ends, hyp_starts, hyp_ends)
