"""Two systems on the same recordings: paired differences, the probability of improvement, a
paired test, Holm's correction.

Conventions (stated beside every number msbench writes):

* **difference** ``B - A`` in percentage points, of ratios of sums over the units both systems
  scored; its interval is the percentile interval of the difference over the recording-level
  cluster bootstrap's resamples (:mod:`msbench.diagnostics.bootstrap`), **the same draws for
  both systems** (a resample that draws recording r twice counts both systems' errors on r
  twice), over the resamples where both rates are defined;
* **probability of improvement**: the share of those resamples in which B's rate is strictly
  below A's (kaldialign's ``p_s2_improv_over_s1``, Bisani and Ney 2004, for plain WER);
* **paired permutation test** over recordings (the default): under the null hypothesis the
  two systems' (errors, length) sums on a recording are exchangeable; every one of the
  ``2^n`` swaps of the ``n`` recordings' pairs is enumerated when ``2^n <= permutations``
  (exact: ``p = #{|T*| as extreme} / 2^n``), else ``permutations`` seeded random swaps
  (``p = (# + 1) / (permutations + 1)``); two-sided as ``scipy.stats.permutation_test``
  (twice the smaller one-sided p-value, at most 1, ties within 100 float epsilons), with
  ``T = rate_B - rate_A``;
* **sign test**: recordings where B's rate is below A's against those where it is above
  (ties dropped), two-sided exact binomial test at 1/2 (``scipy.stats.binomtest``);
* **Holm's step-down correction** over a family of p-values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from msbench.diagnostics.bootstrap import Estimate, percentile_interval

TESTS = ("permutation", "sign")


@dataclass(frozen=True)
class PairedSums:
    """Per-recording numerator and denominator sums of systems A and B (same recordings)."""

    num_a: np.ndarray
    den_a: np.ndarray
    num_b: np.ndarray
    den_b: np.ndarray

    def informative(self) -> PairedSums:
        """Only the recordings where either side has a denominator (the others cannot move T)."""
        keep = (self.den_a + self.den_b) > 0
        return PairedSums(self.num_a[keep], self.den_a[keep], self.num_b[keep], self.den_b[keep])

    @property
    def recordings(self) -> int:
        return int(((self.den_a + self.den_b) > 0).sum())


def draw_difference(a: Estimate, b: Estimate, confidence: float) -> Estimate:
    """``B - A`` with the percentile interval of the per-resample differences (shared draws).

    >>> a = Estimate(10.0, None, None, 3, np.array([9.0, 10.0, 11.0]))
    >>> b = Estimate(8.0, None, None, 3, np.array([8.0, np.nan, 8.5]))
    >>> d = draw_difference(a, b, 0.5)
    >>> d.value, d.defined_resamples, (d.low, d.high)
    (-2.0, 2, (-2.125, -1.375))
    """
    value = None if a.value is None or b.value is None else b.value - a.value
    if a.draws is None or b.draws is None:
        return Estimate(value, None, None, 0)
    draws = b.draws - a.draws
    finite = draws[np.isfinite(draws)]
    if value is None or not len(finite):
        return Estimate(value, None, None, int(len(finite)), draws)
    low, high = percentile_interval(finite, confidence)
    return Estimate(value, low, high, int(len(finite)), draws)


def probability_of_improvement(a: Estimate, b: Estimate) -> float | None:
    """The share of resamples, both rates defined, in which B's rate is strictly below A's.

    >>> a = Estimate(1.0, None, None, 4, np.array([3.0, 2.0, 2.0, np.nan]))
    >>> b = Estimate(1.0, None, None, 4, np.array([1.0, 2.0, 3.0, 0.0]))
    >>> round(probability_of_improvement(a, b), 4)
    0.3333
    """
    if a.draws is None or b.draws is None:
        return None
    both = np.isfinite(a.draws) & np.isfinite(b.draws)
    if not both.any():
        return None
    return float((b.draws[both] < a.draws[both]).mean())


def _rate_difference(sums: PairedSums, swaps: np.ndarray) -> np.ndarray:
    """``100 * (rate_B - rate_A)`` with the recordings marked in each row of ``swaps`` swapped."""
    with np.errstate(invalid="ignore", divide="ignore"):
        num_a = swaps @ sums.num_b + (1 - swaps) @ sums.num_a
        den_a = swaps @ sums.den_b + (1 - swaps) @ sums.den_a
        num_b = swaps @ sums.num_a + (1 - swaps) @ sums.num_b
        den_b = swaps @ sums.den_a + (1 - swaps) @ sums.den_b
        return np.asarray(100 * (num_b / den_b - num_a / den_a), dtype=float)


def swap_patterns(recordings: int, permutations: int, seed: int) -> tuple[np.ndarray, bool]:
    """Every swap pattern (``2^n`` rows, exact) or ``permutations`` seeded random ones.

    >>> patterns, exact = swap_patterns(2, 100, 0)
    >>> patterns.tolist(), exact
    ([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], True)
    """
    if recordings < 63 and 2**recordings <= permutations:
        codes = np.arange(2**recordings)[:, None]
        return ((codes >> np.arange(recordings)) & 1).astype(float), True
    rng = np.random.default_rng(seed)
    return rng.integers(0, 2, size=(permutations, recordings)).astype(float), False


def permutation_test(sums: PairedSums, permutations: int, seed: int) -> float | None:
    """Two-sided p-value of the paired permutation test of ``rate_B - rate_A`` (see the module
    docstring); None when no recording has a denominator."""
    sums = sums.informative()
    n = len(sums.den_a)
    if not n:
        return None
    observed = float(_rate_difference(sums, np.zeros((1, n)))[0])
    if not np.isfinite(observed):
        return None
    patterns, exact = swap_patterns(n, permutations, seed)
    null = _rate_difference(sums, patterns)
    adjustment = 0 if exact else 1
    gamma = abs(np.finfo(float).eps * 100 * observed)
    less = (np.count_nonzero(null <= observed + gamma) + adjustment) / (len(null) + adjustment)
    greater = (np.count_nonzero(null >= observed - gamma) + adjustment) / (len(null) + adjustment)
    return float(min(1.0, 2 * min(less, greater)))


def sign_test(sums: PairedSums) -> float | None:
    """Two-sided exact binomial p-value of B's per-recording rate below A's (ties dropped).

    >>> s = PairedSums(*(np.array(v, float) for v in ([3, 3, 3], [10] * 3, [1, 1, 1], [10] * 3)))
    >>> sign_test(s)
    0.25
    """
    from scipy.stats import binomtest

    both = (sums.den_a > 0) & (sums.den_b > 0)
    rate_a = sums.num_a[both] / sums.den_a[both]
    rate_b = sums.num_b[both] / sums.den_b[both]
    better, worse = int((rate_b < rate_a).sum()), int((rate_b > rate_a).sum())
    if better + worse == 0:
        return None
    return float(binomtest(better, better + worse, 0.5).pvalue)


def paired_test(test: str, sums: PairedSums, permutations: int, seed: int) -> float | None:
    if test == "sign":
        return sign_test(sums)
    return permutation_test(sums, permutations, seed)


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
