"""The recording-level cluster bootstrap behind every interval and significance mark.

Recordings are the clusters: a resample draws as many recordings as the
benchmark holds, with replacement (numpy ``default_rng(seed).integers``), and
keeps all of a drawn recording's units, utterances and speaker pairs
together. A statistic is therefore a function of **weights**: how many times
each recording was drawn (a ``resamples x recordings`` integer matrix; the
point estimate is the all-ones row). The interval is the percentile interval
(2.5 and 97.5 % for ``confidence = 0.95``) of the resamples where the
statistic is defined; a difference or correlation is **significant** when the
interval excludes 0. The number of resamples, the seed and how many resamples
were defined are written beside every interval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

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

    @property
    def significant(self) -> bool | None:
        """The interval excludes 0; None when there is no interval."""
        if self.value is None or self.low is None or self.high is None:
            return None
        return bool(self.low > 0 or self.high < 0)


def _finite(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None


def estimate(statistic: Statistic, weights: np.ndarray, confidence: float) -> Estimate:
    """The point value (all weights 1) and the percentile interval over ``weights``."""
    point = _finite(statistic(np.ones((1, weights.shape[1]), dtype=np.int64))[0])
    draws = statistic(weights) if weights.shape[1] else np.full(len(weights), np.nan)
    values = draws[np.isfinite(draws)]
    if point is None or not len(values):
        return Estimate(point, None, None, int(len(values)), draws)
    low, high = percentile_interval(values, confidence)
    return Estimate(point, low, high, int(len(values)), draws)


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
