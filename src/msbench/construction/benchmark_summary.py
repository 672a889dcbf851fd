"""Benchmark summary in the official release's ``summary.json`` terms, plus hours.

All durations come from ``duration_seconds``. Minutes are rounded to 2
decimals, hours to 2 (``total_hours``) or 4 (per-range hours). The mean overlap
is duration-weighted: ``sum_i d_i o_i / sum_i d_i``; since each recording's
``o_i`` is its overlapped time over its duration ``d_i`` (the release's
definition, :mod:`msbench.features.interaction`), this is the total
overlapped time over the total duration. Duration classes follow
the release: ``< 5 min``, ``5-10 min``, ``10-20 min``, ``20-30 min``,
``30-60 min``, ``>= 60 min`` (left-closed).
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from msbench.construction.condition_space import AXIS_ORDER

DURATION_CLASSES = (
    (5, "< 5 min"),
    (10, "5-10 min"),
    (20, "10-20 min"),
    (30, "20-30 min"),
    (60, "30-60 min"),
    (float("inf"), ">= 60 min"),
)


def _duration_class(minutes: float) -> str:
    return next(label for limit, label in DURATION_CLASSES if minutes < limit)


def _hours_by(rows: Sequence[Mapping[str, Any]], key: str) -> dict[str, float]:
    hours: defaultdict[str, float] = defaultdict(float)
    for row in rows:
        hours[str(row.get(key))] += float(row["duration_seconds"]) / 3600
    return {name: round(value, 4) for name, value in sorted(hours.items())}


def summarize(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    if not rows:
        return {"recordings": 0}
    seconds = [float(row["duration_seconds"]) for row in rows]
    minutes = [s / 60 for s in seconds]
    speakers = [int(row["num_speakers"]) for row in rows]
    weighted_overlap = sum(
        float(r["overlap_ratio"]) * s for r, s in zip(rows, seconds, strict=False)
    ) / sum(seconds)
    conditions = [row.get("conditions") or {} for row in rows]
    counts = {
        axis: dict(sorted(Counter(c[axis] for c in conditions if c.get(axis)).items()))
        for axis in AXIS_ORDER
    }
    hours = {}
    for axis in AXIS_ORDER:
        per_range: defaultdict[str, float] = defaultdict(float)
        for c, s in zip(conditions, seconds, strict=False):
            if c.get(axis):
                per_range[c[axis]] += s / 3600
        hours[axis] = {label: round(value, 4) for label, value in sorted(per_range.items())}
    duration_classes = Counter(_duration_class(m) for m in minutes)
    return {
        "recordings": len(rows),
        "total_hours": round(sum(seconds) / 3600, 2),
        "speaker_range": [min(speakers), max(speakers)],
        "language_distribution": dict(sorted(Counter(str(r["language"]) for r in rows).items())),
        "scenario_distribution": dict(sorted(Counter(str(r["scenario"]) for r in rows).items())),
        "source_distribution": dict(
            sorted(Counter(str(r["source_dataset"]) for r in rows).items())
        ),
        "duration_distribution": {
            label: duration_classes.get(label, 0) for _, label in DURATION_CLASSES
        },
        "median_duration_minutes": round(statistics.median(minutes), 2),
        "minimum_duration_minutes": round(min(minutes), 2),
        "maximum_duration_minutes": round(max(minutes), 2),
        "duration_weighted_mean_overlap": round(weighted_overlap, 6),
        "condition_distribution": counts,
        "condition_hours": hours,
        "hours_per_source": _hours_by(rows, "source_dataset"),
        "hours_per_language": _hours_by(rows, "language"),
        "hours_per_scenario": _hours_by(rows, "scenario"),
    }
