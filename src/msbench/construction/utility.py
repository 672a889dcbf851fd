"""Per-candidate utility ``U = w_C C + w_M M + w_D D + w_R R``, each component in [0, 1].

Notation: the pool has ``N`` candidates; axis ``a`` has ranges ``r``; ``n_a(r)``
is the number of candidates in range ``r`` of axis ``a``; candidate ``i`` lies
in range ``r_a(i)`` of each of the ``A = 5`` axes.

C, coverage contribution (rarity of its ranges)
    ``C_i = (1/A) * sum_a  m_a / n_a(r_a(i))`` with ``m_a = min_r n_a(r)`` over
    the non-empty ranges of axis ``a``. 1 when every range of ``i`` is the
    rarest of its axis; small when ``i`` sits in crowded ranges.
M, co-occurrence of challenging conditions
    ``k_i`` = number of axes on which ``i`` lies in a challenging range
    (``utility.challenging``, default P2 P3 O3 O4 S3 T3 N3);
    ``M_i = max(0, k_i - 1) / (A - 1)``: one hard condition alone scores 0,
    all five together score 1.
D, diversity in the normalised condition space
    Each range is mapped to ``x_a = index / (ranges_a - 1)`` in [0, 1] (label
    order, so P3 -> 1), giving a point ``x_i`` in ``[0, 1]^A``.
    ``dbar_i = (1/N) sum_j ||x_i - x_j||_2 / sqrt(A)`` is the mean distance to
    the rest of the pool; ``D_i = dbar_i / max_j dbar_j``. Candidates in sparse,
    far-off regions of the condition space score high. Computed per profile
    cell, so the cost is quadratic in occupied cells (at most 1,280), not in N.
R, under-represented source
    ``R_i = min_s h_s / h_{s(i)}`` with ``h_s`` the pool hours of source ``s``:
    1 for the smallest source, near 0 for a dominant one.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from msbench.construction.condition_space import ConditionSpace

COMPONENTS = ("C", "M", "D", "R")


def coverage_component(pool: Sequence[Mapping[str, Any]], space: ConditionSpace) -> list[float]:
    counts = Counter(label for row in pool for label in row["conditions"].values())
    rarest = {
        axis.name: min(counts[label] for label in axis.labels if counts[label] > 0)
        for axis in space.axes
        if any(counts[label] for label in axis.labels)
    }
    return [
        sum(rarest[a.name] / counts[row["conditions"][a.name]] for a in space.axes)
        / len(space.axes)
        for row in pool
    ]


def challenge_component(
    pool: Sequence[Mapping[str, Any]], space: ConditionSpace, challenging: Sequence[str]
) -> list[float]:
    hard = set(challenging)
    axes = len(space.axes)
    return [
        max(0, sum(label in hard for label in row["conditions"].values()) - 1) / (axes - 1)
        for row in pool
    ]


def _coordinates(conditions: Mapping[str, str], space: ConditionSpace) -> tuple[float, ...]:
    coordinate = []
    for axis in space.axes:
        labels = axis.labels
        coordinate.append(labels.index(conditions[axis.name]) / max(1, len(labels) - 1))
    return tuple(coordinate)


def diversity_component(pool: Sequence[Mapping[str, Any]], space: ConditionSpace) -> list[float]:
    if not pool:
        return []
    cells = Counter(row["profile"] for row in pool)
    profiles = sorted(cells)
    first = {row["profile"]: row["conditions"] for row in pool}
    points = np.array([_coordinates(first[p], space) for p in profiles])
    weights = np.array([cells[p] for p in profiles], dtype=float)
    distances = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    mean_distance = distances @ weights / (len(pool) * math.sqrt(len(space.axes)))
    peak = float(mean_distance.max())
    by_profile = {
        p: (float(d) / peak if peak > 0 else 0.0)
        for p, d in zip(profiles, mean_distance, strict=False)
    }
    return [by_profile[row["profile"]] for row in pool]


def source_component(pool: Sequence[Mapping[str, Any]]) -> list[float]:
    hours: defaultdict[str, float] = defaultdict(float)
    for row in pool:
        hours[row["source_dataset"]] += float(row["duration_seconds"])
    smallest = min(hours.values(), default=0.0)
    return [
        smallest / hours[row["source_dataset"]] if hours[row["source_dataset"]] else 1.0
        for row in pool
    ]


def score_pool(
    pool: Sequence[Mapping[str, Any]],
    space: ConditionSpace,
    weights: Mapping[str, float],
    challenging: Sequence[str],
) -> list[dict[str, float]]:
    """``{"C", "M", "D", "R", "U"}`` for every candidate, in pool order."""
    columns = zip(
        coverage_component(pool, space),
        challenge_component(pool, space, challenging),
        diversity_component(pool, space),
        source_component(pool),
        strict=True,
    )
    scores = []
    for values in columns:
        parts = dict(zip(COMPONENTS, values, strict=True))
        parts["U"] = sum(weights[name] * parts[name] for name in COMPONENTS)
        scores.append(parts)
    return scores


@dataclass(frozen=True)
class ScoredPool:
    """The candidate pool with utilities (``candidate_pool.csv`` rows), and what it left out."""

    candidates: list[dict[str, Any]]
    excluded: list[dict[str, Any]]  # recording_id, pool_code, pool_reason
    notes: list[str]


def utility_pool(
    labelled: Sequence[dict[str, Any]], space: ConditionSpace, resolved: Mapping[str, Any]
) -> ScoredPool:
    """Eligible recordings thinned into the pool (config ``pool``), each scored with U."""
    from msbench.construction.manifests import flatten_conditions
    from msbench.construction.pool import build_pool
    from msbench.construction.replacement import read_qc_rejections

    qc = read_qc_rejections(resolved["selection"].get("qc_rejected"))
    result = build_pool(labelled, resolved["pool"], qc)
    utility = resolved["utility"]
    scores = score_pool(result.candidates, space, utility["weights"], utility["challenging"])
    candidates = [{**row, **score} for row, score in zip(result.candidates, scores, strict=True)]
    excluded = [
        {"recording_id": rid, "pool_code": reason.code, "pool_reason": reason.message}
        for rid, reason in sorted(result.excluded.items())
    ]
    return ScoredPool([flatten_conditions(r) for r in candidates], excluded, result.notes)
