"""Two systems on the same recordings: the paired difference and its interval, the probability
that B is better, equal or worse, and the paired tests.

Conventions (stated beside every number msbench writes):

* **difference** ``B - A`` in percentage points, of ratios of sums over the units both systems
  scored; its interval is :data:`msbench.diagnostics.intervals.METHOD` (the jackknife over
  recordings with Student's t on ``n - 1`` degrees of freedom, chosen by
  ``benchmarks/bench_comparison_calibration.py``) of that difference as one statistic of the
  recordings' weights; fewer than 3 recordings: no interval, no test;
* **probabilities** ``p_better``, ``p_tie``, ``p_worse``: the shares of the recording-level
  cluster bootstrap's resamples (the same draws for both systems; a resample that draws
  recording r twice counts both systems' errors on r twice), both rates defined, in which B's
  rate is below, equal to, above A's (``p_better`` is kaldialign's ``p_s2_improv_over_s1``,
  Bisani and Ney 2004, for plain WER);
* **paired permutation test** over recordings (the default): under the null hypothesis the
  two systems' (errors, length) sums on a recording are exchangeable; every one of the
  ``2^n`` swaps of the ``n`` recordings' pairs is enumerated when ``2^n <= permutations``
  (exact: ``p = #{T* as extreme} / 2^n``, the observed pattern among them), else
  ``permutations`` seeded random swaps (``p = (# + 1) / (permutations + 1)``); two-sided as
  ``scipy.stats.permutation_test`` (twice the smaller one-sided p-value, at most 1), with
  ``T = rate_B - rate_A`` computed for the observed pattern by the same matrix product as for
  the others, and every near-tie decided in exact arithmetic on the integer statistics
  (tokens; DER's seconds as whole microseconds), so rounding never drops the observed pattern;
* **sign test**: recordings where B's rate is below A's against those where it is above
  (ties dropped), two-sided exact binomial test at 1/2 (``scipy.stats.binomtest``): a test of
  the **median** per-recording difference, not of the rates (under equal rates with skewed
  differences it rejects more often than alpha; the permutation test is the default);
* the correction for many pairs: :mod:`msbench.comparison.multiplicity`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from msbench.diagnostics.bootstrap import Estimate

TESTS = ("permutation", "sign")


@dataclass(frozen=True)
class PairedSums:
    """Per-recording numerator and denominator sums of systems A and B (same recordings)."""

    num_a: np.ndarray
    den_a: np.ndarray
    num_b: np.ndarray
    den_b: np.ndarray

    def informative_mask(self) -> np.ndarray:
        """The recordings where either side has a denominator (the others cannot move T)."""
        return np.asarray((self.den_a + self.den_b) > 0)

    def informative(self) -> PairedSums:
        """Only the recordings where either side has a denominator."""
        keep = self.informative_mask()
        return PairedSums(self.num_a[keep], self.den_a[keep], self.num_b[keep], self.den_b[keep])

    @property
    def recordings(self) -> int:
        return int(((self.den_a + self.den_b) > 0).sum())


def draw_difference(a: Estimate, b: Estimate, confidence: float) -> Estimate:
    """``B - A``: its interval is the one of the difference of the two statistics (the
    jackknife-t over recordings, CR1), its draws the per-resample differences (shared draws).
    (Below: per-recording differences 0, -1, -1, 0; ``s / sqrt(n) * sqrt(n / (n - 1))`` is
    0.3333, t on 3 degrees of freedom 3.1824.)

    >>> mean = lambda values: lambda w: (w @ np.array(values)) / w.sum(axis=1)
    >>> w = np.ones((1, 4))
    >>> a = Estimate(2.5, None, None, 1, mean([1.0, 2, 3, 4])(w), mean([1.0, 2, 3, 4]), 4)
    >>> b = Estimate(2.0, None, None, 1, mean([1.0, 1, 2, 4])(w), mean([1.0, 1, 2, 4]), 4)
    >>> d = draw_difference(a, b, 0.95)
    >>> d.value, round(d.low, 4), round(d.high, 4)
    (-0.5, -1.5608, 0.5608)
    """
    from msbench.diagnostics.intervals import METHOD, interval

    value = None if a.value is None or b.value is None else b.value - a.value
    if a.draws is None or b.draws is None:
        return Estimate(value, None, None, 0)
    draws = b.draws - a.draws
    defined = int(np.isfinite(draws).sum())
    if value is None or a.statistic is None or b.statistic is None:
        return Estimate(value, None, None, defined, draws)
    first, second = a.statistic, b.statistic

    def difference(weights: np.ndarray) -> np.ndarray:
        return np.asarray(second(weights) - first(weights), dtype=float)

    found = interval(METHOD, difference, a.recordings, confidence, draws)
    return Estimate(value, found.low, found.high, defined, draws, difference, a.recordings)


def probabilities(a: Estimate, b: Estimate) -> tuple[float, float, float] | None:
    """``(p_better, p_tie, p_worse)``: the shares of resamples, both rates defined, in which B's
    rate is below, equal to and above A's (equal: within 1e-9 points).

    >>> a = Estimate(1.0, None, None, 4, np.array([3.0, 2.0, 2.0, np.nan]))
    >>> b = Estimate(1.0, None, None, 4, np.array([1.0, 2.0, 3.0, 0.0]))
    >>> [round(p, 4) for p in probabilities(a, b)]
    [0.3333, 0.3333, 0.3333]
    """
    if a.draws is None or b.draws is None:
        return None
    both = np.isfinite(a.draws) & np.isfinite(b.draws)
    if not both.any():
        return None
    gap = b.draws[both] - a.draws[both]
    tie = np.abs(gap) <= 1e-9
    return (
        float((gap < 0)[~tie].sum() / both.sum()),
        float(tie.mean()),
        float((gap > 0)[~tie].sum() / both.sum()),
    )


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


#: Statistics are compared exactly in their own integer unit: WER-family counts are whole
#: tokens, DER's are seconds that are whole microseconds (the timeline's unit).
EXACT_UNIT = 1_000_000


def exact_counts(values: np.ndarray) -> list[int]:
    """Sums as integers: whole counts as they are, seconds in microseconds (``round(x * 1e6)``).

    >>> exact_counts(np.array([3.0, 12.345678]))
    [3000000, 12345678]
    """
    return [int(round(float(v) * EXACT_UNIT)) for v in values]


def exact_difference(sums: PairedSums, pattern: np.ndarray) -> Fraction:
    """``rate_B - rate_A`` of one swap pattern in exact rational arithmetic (None-free: the
    caller keeps only recordings with a denominator)."""
    swapped = pattern.astype(bool)
    columns = [exact_counts(v) for v in (sums.num_a, sums.den_a, sums.num_b, sums.den_b)]
    num_a = sum(nb if s else na for na, nb, s in zip(columns[0], columns[2], swapped, strict=True))
    den_a = sum(db if s else da for da, db, s in zip(columns[1], columns[3], swapped, strict=True))
    num_b = sum(na if s else nb for na, nb, s in zip(columns[0], columns[2], swapped, strict=True))
    den_b = sum(da if s else db for da, db, s in zip(columns[1], columns[3], swapped, strict=True))
    if not den_a or not den_b:
        return Fraction(0)
    return Fraction(num_b, den_b) - Fraction(num_a, den_a)


def extreme_counts(
    sums: PairedSums, patterns: np.ndarray, null: np.ndarray, observed: float
) -> tuple[int, int]:
    """How many patterns give ``T >= T_obs`` and how many ``T <= T_obs``, with every
    near-tie (within 1e-9 of ``T_obs``, relative) decided in exact arithmetic, so the observed
    pattern always counts itself and floating-point rounding never breaks a tie."""
    near = np.abs(null - observed) <= 1e-9 * max(1.0, abs(observed))
    greater = int(np.count_nonzero((null > observed) & ~near))
    less = int(np.count_nonzero((null < observed) & ~near))
    if near.any():
        target = exact_difference(sums, np.zeros(patterns.shape[1]))
        for row in np.flatnonzero(near):
            value = exact_difference(sums, patterns[row])
            greater += value >= target
            less += value <= target
    return greater, less


def permutation_test(sums: PairedSums, permutations: int, seed: int) -> float | None:
    """Two-sided p-value of the paired permutation test of ``rate_B - rate_A`` (see the module
    docstring); None when no recording has a denominator."""
    sums = sums.informative()
    n = len(sums.den_a)
    if not n:
        return None
    patterns, exact = swap_patterns(n, permutations, seed)
    statistics = _rate_difference(sums, np.vstack([np.zeros((1, n)), patterns]))
    observed, null = float(statistics[0]), statistics[1:]
    if not np.isfinite(observed):
        return None
    greater, less = extreme_counts(sums, patterns, null, observed)
    adjustment = 0 if exact else 1
    total = len(null) + adjustment
    return float(min(1.0, 2 * min(greater + adjustment, less + adjustment) / total))


def smallest_p(recordings: int, permutations: int) -> float:
    """The smallest two-sided p the permutation test can give: ``2 / 2^n`` exact, else
    ``2 / (permutations + 1)``.

    >>> smallest_p(6, 10000), smallest_p(5, 10000)
    (0.03125, 0.0625)
    """
    if recordings < 63 and 2**recordings <= permutations:
        return min(1.0, 2 / 2**recordings)
    return min(1.0, 2 / (permutations + 1))


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
