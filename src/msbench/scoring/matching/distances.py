"""The distances the cpWER and tcpWER assignments minimise, one matrix a unit.

``levenshtein``        the word edit distance of two token-id sequences, by rapidfuzz's
                       bit-parallel Levenshtein (Myers / Hyyrö: about 64 cells a machine
                       word). The edit distance is one number, whatever computes it, so the
                       matrix is meeteval's ``levenshtein_distance`` matrix exactly (and the
                       assignment over it meeteval's: ``tests/unit/test_fast_scoring.py``).
``time_constrained``   meeteval's ``time_constrained_levenshtein_distance`` (0.4.3,
                       ``levenshtein.h``), transcribed line for line and compiled with numba:
                       when both sides' word starts are sorted from 0 (``_timings_sorted``)
                       meeteval runs its pruned ``time_constrained_levenshtein_distance_v2_``,
                       otherwise the full ``..._unoptimized_``; both are reproduced with their
                       unsigned 32-bit arithmetic (the pruned one starts its row at
                       ``UINT_MAX``), so that the assignment sees meeteval's numbers by
                       construction (on 3,000 seeded pairs the pruned distance also equals the
                       unpruned one).

A word's time is its pseudo-word interval; the hypothesis' carries the collar.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np


def levenshtein_matrix(refs: Sequence[np.ndarray], hyps: Sequence[np.ndarray]) -> np.ndarray:
    """``[len(refs) x len(hyps)]`` word edit distances (token ids), rapidfuzz's.

    >>> levenshtein_matrix([np.array([1, 2, 3])], [np.array([1, 3]), np.array([])]).tolist()
    [[1, 3]]
    """
    from rapidfuzz.distance import Levenshtein

    lists = [h.tolist() for h in hyps]
    matrix = np.zeros((len(refs), len(hyps)), dtype=np.int64)
    for i, ref in enumerate(refs):
        r = ref.tolist()
        for j, h in enumerate(lists):
            matrix[i, j] = Levenshtein.distance(r, h)
    return matrix


def time_constrained(ref: Any, hyp: Any) -> int:
    """meeteval's time-constrained distance of two word sequences given as ``(symbols,
    starts, ends)`` arrays (the hypothesis' times collared), compiled
    (:mod:`msbench.scoring.matching.distance_kernel`)."""
    from msbench.scoring.matching.distance_kernel import time_constrained as kernel

    return int(kernel(ref[0], hyp[0], ref[1], ref[2], hyp[1], hyp[2]))


def time_constrained_matrix(refs: Sequence[Any], hyps: Sequence[Any]) -> np.ndarray:
    """``[len(refs) x len(hyps)]`` of :func:`time_constrained`."""
    from msbench.scoring.matching.distance_kernel import time_constrained as kernel

    matrix = np.zeros((len(refs), len(hyps)), dtype=np.int64)
    for i, r in enumerate(refs):
        for j, h in enumerate(hyps):
            matrix[i, j] = kernel(r[0], h[0], r[1], r[2], h[1], h[2])
    return matrix
