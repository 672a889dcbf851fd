"""Corrections for many tests: Westfall and Young's step-down max-T over the same permutations
(msbench's), and Holm's step-down (reported beside it in the calibration study).

**max-T** (Westfall and Young 1993, algorithm 2.8): the systems of a family of pairwise
comparisons are permuted within each recording (for two systems: the swap of the paired
permutation test; every one of the ``2^n`` swaps when ``2^n <= permutations``, else
``permutations`` seeded random ones), every pair's ``|rate_B - rate_A|`` is computed on each
permutation, and the pair ranked ``i``-th by its observed ``|T|`` gets the share of permutations
whose largest ``|T|`` among the pairs ranked ``i``-th or lower reaches it; the p-values are then
made monotone in that order. It keeps the family-wise error at alpha under any correlation of
the pairs, and loses less power than Holm where the tests are correlated (pairs sharing a
system). A permuted ``|T|`` within 1e-9 (relative) of the observed one counts as reaching it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def label_permutations(
    systems: int, recordings: int, permutations: int, seed: int
) -> tuple[np.ndarray, bool]:
    """Which system's sums each label takes, per permutation and recording:
    ``(permutations x recordings x systems)``; exact (every swap) for two systems where
    ``2^n <= permutations``. The first row is the identity (the observed assignment).

    >>> rows, exact = label_permutations(2, 2, 100, 0)
    >>> rows[:, :, 0].tolist(), exact
    ([[0, 0], [1, 0], [0, 1], [1, 1]], True)
    """
    if systems == 2 and recordings < 63 and 2**recordings <= permutations:
        codes = (np.arange(2**recordings)[:, None] >> np.arange(recordings)) & 1
        return np.stack([codes, 1 - codes], axis=2), True
    rng = np.random.default_rng(seed)
    base = np.broadcast_to(np.arange(systems), (permutations, recordings, systems))
    shuffled = rng.permuted(base, axis=2)
    identity = np.broadcast_to(np.arange(systems), (1, recordings, systems))
    return np.concatenate([identity, shuffled]), False


def pair_statistics(
    num: np.ndarray, den: np.ndarray, pairs: Sequence[tuple[int, int]], labels: np.ndarray
) -> np.ndarray:
    """``100 * (rate_b - rate_a)`` of each pair (columns) under each permutation (rows);
    ``num``, ``den``: systems x recordings."""
    recordings = np.arange(num.shape[1])
    sums_num = num[labels, recordings[None, :, None]].sum(axis=1)  # permutations x systems
    sums_den = den[labels, recordings[None, :, None]].sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = sums_num / sums_den
    return np.stack([100 * (rates[:, b] - rates[:, a]) for a, b in pairs], axis=1)


def westfall_young(
    num: np.ndarray,
    den: np.ndarray,
    pairs: Sequence[tuple[int, int]],
    permutations: int,
    seed: int,
) -> list[float | None]:
    """Step-down max-T adjusted two-sided p-values of each pair (module docstring); None where
    a pair's rate is undefined.

    >>> num = np.array([[5.0, 6, 7, 8, 9, 10], [1.0, 2, 1, 2, 1, 2]])
    >>> westfall_young(num, np.full((2, 6), 20.0), [(0, 1)], 10000, 0)
    [0.03125]
    """
    labels, exact = label_permutations(len(num), num.shape[1], permutations, seed)
    statistics = np.abs(pair_statistics(num, den, pairs, labels))
    observed = statistics[0]
    null = statistics if exact else statistics[1:]
    adjustment = 0 if exact else 1
    defined = [k for k in range(len(pairs)) if np.isfinite(observed[k])]
    order = sorted(defined, key=lambda k: -observed[k])
    out: list[float | None] = [None] * len(pairs)
    running, maxima = 0.0, np.full(len(null), -np.inf)
    adjusted = {}
    for k in reversed(order):  # least significant first: successive maxima
        maxima = np.maximum(maxima, np.nan_to_num(null[:, k], nan=-np.inf))
        reach = maxima >= observed[k] - 1e-9 * max(1.0, observed[k])
        adjusted[k] = (int(np.count_nonzero(reach)) + adjustment) / (len(null) + adjustment)
    for k in order:  # most significant first: monotone
        running = max(running, adjusted[k])
        out[k] = float(min(1.0, running))
    return out


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values (None stays None and is not counted in the family):
    the k-th smallest of m becomes ``max_{j <= k} min(1, (m - j + 1) p_(j))``.

    >>> holm([0.01, 0.04, None, 0.03])
    [0.03, 0.06, None, 0.06]
    """
    present = sorted((p, k) for k, p in enumerate(p_values) if p is not None)
    m = len(present)
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for j, (p, k) in enumerate(present):
        running = max(running, min(1.0, (m - j) * p))
        out[k] = round(running, 12)
    return out
