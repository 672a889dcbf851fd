"""Statistics of recordings, recordings being the clusters: their intervals and the cluster
bootstrap's shared draws.

A statistic is a function of **weights**: how many times each recording counts (a ``rows x
recordings`` matrix; the point estimate is the all-ones row), so that all of a recording's
units, utterances and speaker pairs stay together. The interval of every rate, difference and
Table 2 series is :data:`msbench.diagnostics.intervals.METHOD` (the jackknife over recordings
with Student's t, chosen by the calibration study; fewer than 3 recordings: no interval); a
difference or correlation is **significant** when its interval excludes 0. The cluster
bootstrap's resamples (as many recordings as the benchmark holds, drawn with replacement by
numpy ``default_rng(seed).integers``, the same draws for every system) give the probability
that one system is better than another; the number of resamples, the seed and how many
resamples were defined are written beside every interval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from msbench.diagnostics.intervals import METHOD, interval

#: weights (resamples x recordings) -> one value per row (nan: undefined).
Statistic = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class Bootstrap:
    resamples: int = 1000
    seed: int = 0
    confidence: float = 0.95

    def weights(self, recordings: int) -> np.ndarray:
        """How many times each recording is drawn, per resample (deterministic for the seed).

        >>> Bootstrap(resamples=2, seed=0).weights(3).sum(axis=1).tolist()
        [3, 3]
        """
        rng = np.random.default_rng(self.seed)
        draws = rng.integers(0, recordings, size=(self.resamples, recordings))
        counts = np.zeros((self.resamples, recordings), dtype=np.int64)
        np.add.at(counts, (np.arange(self.resamples)[:, None], draws), 1)
        return counts


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None
    defined_resamples: int
    #: the statistic on every resample, nan where undefined (what two systems' estimates on the
    #: same draws are paired by: :func:`msbench.comparison.paired.draw_difference`)
    draws: np.ndarray | None = field(default=None, compare=False, repr=False)
    #: the statistic itself (a difference of two estimates is the difference of theirs)
    statistic: Statistic | None = field(default=None, compare=False, repr=False)
    #: how many recordings the statistic reads (its weight vectors' length)
    recordings: int = field(default=0, compare=False)

    @property
    def significant(self) -> bool | None:
        """The interval excludes 0; None when there is no interval."""
        if self.value is None or self.low is None or self.high is None:
            return None
        return bool(self.low > 0 or self.high < 0)


def _finite(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None


def estimate(
    statistic: Statistic, weights: np.ndarray, confidence: float, method: str = METHOD
) -> Estimate:
    """The point value (all weights 1), its ``method`` interval
    (:mod:`msbench.diagnostics.intervals`) and the statistic on every bootstrap resample."""
    n = weights.shape[1]
    point = _finite(statistic(np.ones((1, n), dtype=np.int64))[0]) if n else None
    draws = statistic(weights) if n else np.full(len(weights), np.nan)
    defined = int(np.isfinite(draws).sum())
    if point is None:
        return Estimate(point, None, None, defined, draws, statistic, n)
    found = interval(method, statistic, n, confidence, draws, weights)
    return Estimate(point, found.low, found.high, defined, draws, statistic, n)


def percentile_interval(values: np.ndarray, confidence: float) -> tuple[float, float]:
    """The ``(1 - confidence) / 2`` and ``(1 + confidence) / 2`` percentiles (numpy's linear
    interpolation between order statistics).

    >>> percentile_interval(np.arange(101.0), 0.5)
    (25.0, 75.0)
    """
    tail = 100 * (1 - confidence) / 2
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def ratio_difference(
    num_a: np.ndarray, den_a: np.ndarray, num_b: np.ndarray, den_b: np.ndarray, scale: float = 100
) -> Statistic:
    """``scale * (sum num_a / sum den_a - sum num_b / sum den_b)`` over the drawn recordings.

    >>> stat = ratio_difference(*(np.array(v, float) for v in ([1, 1], [2, 2], [0, 1], [2, 2])))
    >>> stat(np.ones((1, 2), dtype=int)).tolist()
    [25.0]
    """

    def statistic(weights: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            a = (weights @ num_a) / (weights @ den_a)
            b = (weights @ num_b) / (weights @ den_b)
        return np.asarray(scale * (a - b), dtype=float)

    return statistic


def ratio(num: np.ndarray, den: np.ndarray, scale: float = 100) -> Statistic:
    """``scale * sum num / sum den`` over the drawn recordings."""

    def statistic(weights: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.asarray(scale * (weights @ num) / (weights @ den), dtype=float)

    return statistic


def spearman(x: np.ndarray, y: np.ndarray) -> float:
    """Spearman's rho with average ranks for ties; nan when a side is constant or too short.

    >>> round(spearman(np.array([1.0, 2, 3, 4]), np.array([1.0, 3, 2, 4])), 3)
    0.8
    """
    from scipy.stats import rankdata

    if len(x) < 3:
        return float("nan")
    rx, ry = rankdata(x), rankdata(y)
    sx, sy = rx.std(), ry.std()
    if sx == 0 or sy == 0:
        return float("nan")
    return float(((rx - rx.mean()) * (ry - ry.mean())).mean() / (sx * sy))


def pooled(function: Callable[[np.ndarray], float]) -> Statistic:
    """A statistic of per-row weight vectors, evaluated row by row."""

    def statistic(weights: np.ndarray) -> np.ndarray:
        return np.array([function(row) for row in weights], dtype=float)

    return statistic
