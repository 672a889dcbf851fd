"""Confidence intervals of a statistic of recordings, recordings being the clusters.

A statistic is a function of recording **weights** (:data:`msbench.diagnostics.bootstrap.
Statistic`: a ``rows x recordings`` matrix in, one value per row out; the point estimate is the
all-ones row). Every method below reads the statistic through that one interface, so each rate,
difference and Table 2 series gets the same kind of interval:

``percentile``   the percentile interval of the statistic over the cluster bootstrap's
                 resamples (the shared draws); msbench's interval before 0.3.
``bca``          Efron's bias-corrected and accelerated bootstrap interval (acceleration from
                 the jackknife), on the same draws.
``delta-t``      the delta method (infinitesimal jackknife: the statistic's derivative with
                 respect to each recording's weight) with ``n / (n - 1)`` and Student's t on
                 ``n - 1`` degrees of freedom.
``jackknife-t``  the leave-one-recording-out jackknife variance with Student's t on
                 ``n - 1`` degrees of freedom: ``theta +- t * sqrt((n-1)/n * sum (theta_(i) -
                 mean)^2)``. For a ratio of sums it is the delta method with each recording's
                 influence divided by ``1 - its share of the denominator`` (the cluster HC3 /
                 CR3 correction), wider exactly where one recording dominates.
``jackknife-cr1-t`` the same with the jackknife variance times ``n / (n - 1)``, the
                 small-sample factor of cluster-robust variances (CR1, ``G / (G - 1)``):
                 ``theta +- t * sqrt(sum (theta_(i) - mean)^2)``.
``bootstrap-t``  the studentized bootstrap: the resamples' ``(theta* - theta) / se*`` (se* by
                 the delta method on each resample) as the reference distribution.

Which one msbench uses (:data:`METHOD`) was chosen from evidence: ``benchmarks/
bench_comparison_calibration.py`` simulates benchmarks with known differences and prints each
method's coverage at 6, 20, 60 and 99 recordings (docs/concepts/comparison.md quotes its run).
A statistic over fewer than :data:`MIN_RECORDINGS` recordings gets no interval.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

Statistic = Callable[[np.ndarray], np.ndarray]
METHODS = ("percentile", "bca", "delta-t", "jackknife-t", "jackknife-cr1-t", "bootstrap-t")
#: The interval of every rate, difference and Table 2 series (see the module docstring): the
#: one that covers at 6 recordings and beyond in the calibration study.
METHOD = "jackknife-cr1-t"
#: Fewer recordings than this: no interval and no test (the row says so).
MIN_RECORDINGS = 3


@dataclass(frozen=True)
class Interval:
    low: float | None
    high: float | None
    se: float | None = None  # the standard error the t intervals use (None for the others)


NONE = Interval(None, None)


def _point(statistic: Statistic, n: int) -> float:
    return float(statistic(np.ones((1, n), dtype=np.int64))[0])


def leave_one_out(statistic: Statistic, n: int) -> np.ndarray:
    """The statistic with each recording left out in turn (nan where undefined).

    >>> mean = lambda w: (w @ np.array([1.0, 2.0, 6.0])) / w.sum(axis=1)
    >>> leave_one_out(mean, 3).tolist()
    [4.0, 3.5, 1.5]
    """
    return np.asarray(statistic(1 - np.eye(n, dtype=np.int64)), dtype=float)


def jackknife_se(statistic: Statistic, n: int, small_sample: bool = False) -> float | None:
    """``sqrt((n-1)/n * sum (theta_(i) - mean)^2)`` over the defined leave-one-out values; with
    ``small_sample``, times ``n / (n - 1)`` under the root (CR1).

    >>> mean = lambda w: (w @ np.array([1.0, 2.0, 6.0])) / w.sum(axis=1)
    >>> round(jackknife_se(mean, 3), 6), round(jackknife_se(mean, 3, True), 6)
    (1.527525, 1.870829)
    """
    values = leave_one_out(statistic, n)
    values = values[np.isfinite(values)]
    m = len(values)
    if m < 2:
        return None
    factor = 1.0 if small_sample else (m - 1) / m
    return float(np.sqrt(factor * ((values - values.mean()) ** 2).sum()))


def delta_se(statistic: Statistic, n: int, weights: np.ndarray | None = None) -> np.ndarray:
    """The delta method's standard error (infinitesimal jackknife, ``n / (n - 1)`` corrected)
    at each row of ``weights`` (the all-ones row when None): central differences of the
    statistic in each recording's weight."""
    base = np.ones((1, n)) if weights is None else np.asarray(weights, dtype=float)
    step = 1e-4
    shifts = np.eye(n) * step
    plus = statistic((base[:, None, :] + shifts[None]).reshape(-1, n)).reshape(len(base), n)
    minus = statistic((base[:, None, :] - shifts[None]).reshape(-1, n)).reshape(len(base), n)
    gradient = (plus - minus) / (2 * step)
    # the statistic is of weights that sum to n; its scale-free form has gradient with sum 0
    gradient = gradient - gradient.mean(axis=1, keepdims=True)
    return np.sqrt(n / (n - 1) * (gradient**2).sum(axis=1))


def t_interval(point: float, se: float | None, dof: int, confidence: float) -> Interval:
    from scipy.stats import t

    if se is None or not np.isfinite(se) or dof < 1:
        return NONE
    q = float(t.ppf((1 + confidence) / 2, dof))
    return Interval(point - q * se, point + q * se, se)


def interval(
    method: str,
    statistic: Statistic,
    n: int,
    confidence: float,
    draws: np.ndarray | None = None,
    weights: np.ndarray | None = None,
) -> Interval:
    """The ``method`` interval of ``statistic`` over ``n`` recordings; ``draws``: the statistic
    on the bootstrap ``weights`` (the percentile, BCa and bootstrap-t intervals read them)."""
    if n < MIN_RECORDINGS:
        return NONE
    point = _point(statistic, n)
    if not np.isfinite(point):
        return NONE
    if method in ("jackknife-t", "jackknife-cr1-t"):
        se = jackknife_se(statistic, n, small_sample=method == "jackknife-cr1-t")
        return t_interval(point, se, n - 1, confidence)
    if method == "delta-t":
        return t_interval(point, float(delta_se(statistic, n)[0]), n - 1, confidence)
    if draws is None:
        raise ValueError(f"the {method} interval needs the bootstrap's draws")
    finite = draws[np.isfinite(draws)]
    if not len(finite):
        return NONE
    tail = (1 - confidence) / 2
    if method == "percentile":
        low, high = np.percentile(finite, [100 * tail, 100 * (1 - tail)])
        return Interval(float(low), float(high))
    if method == "bca":
        return _bca(statistic, n, point, finite, tail)
    if method == "bootstrap-t":
        return _bootstrap_t(statistic, n, point, draws, weights, tail)
    raise ValueError(f"unknown interval {method!r} (intervals: {', '.join(METHODS)})")


def _bca(statistic: Statistic, n: int, point: float, draws: np.ndarray, tail: float) -> Interval:
    from scipy.stats import norm

    below = float(np.mean(draws < point)) + 0.5 * float(np.mean(draws == point))
    z0 = float(norm.ppf(min(max(below, 1e-9), 1 - 1e-9)))
    loo = leave_one_out(statistic, n)
    loo = loo[np.isfinite(loo)]
    centred = loo.mean() - loo
    spread = (centred**2).sum()
    accel = float((centred**3).sum() / (6 * spread**1.5)) if spread > 0 else 0.0
    ends = []
    for alpha in (tail, 1 - tail):
        z = z0 + float(norm.ppf(alpha))
        ends.append(float(norm.cdf(z0 + z / (1 - accel * z))))
    low, high = np.percentile(draws, [100 * ends[0], 100 * ends[1]])
    return Interval(float(low), float(high))


def _bootstrap_t(
    statistic: Statistic,
    n: int,
    point: float,
    draws: np.ndarray,
    weights: np.ndarray | None,
    tail: float,
) -> Interval:
    if weights is None:
        raise ValueError("the bootstrap-t interval needs the bootstrap's weights")
    se = float(delta_se(statistic, n)[0])
    star = delta_se(statistic, n, weights)
    keep = np.isfinite(draws) & np.isfinite(star) & (star > 0)
    if not keep.any() or not np.isfinite(se):
        return NONE
    t_star = (draws[keep] - point) / star[keep]
    upper, lower = np.percentile(t_star, [100 * (1 - tail), 100 * tail])
    return Interval(point - float(upper) * se, point - float(lower) * se, se)
