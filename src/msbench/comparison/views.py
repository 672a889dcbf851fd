"""The leaderboard's views with intervals: every rate with its recording-level cluster-bootstrap
interval, the same draws for every system and view (leaderboard_views.csv).

The point value of each rate is the leaderboard's own (a ratio of sums over the view's units,
:func:`msbench.scoring.aggregate.sum_units`); the interval is the percentile interval over
the resamples in which the rate is defined.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from msbench.comparison.ground import VIEWS, SystemUnits, common_units, view_rows
from msbench.comparison.metrics import METRICS, recording_sums
from msbench.diagnostics.bootstrap import estimate, ratio
from msbench.scoring.aggregate import sum_units


def _percent(value: float | None) -> float | None:
    return None if value is None else round(float(value), 2)


def view_row(
    system: SystemUnits,
    view: str,
    rows: Sequence[Mapping[str, Any]],
    recordings: Sequence[str],
    weights: np.ndarray,
    confidence: float,
) -> dict[str, Any]:
    sums = sum_units(rows)
    row: dict[str, Any] = {
        "view": view,
        "system_id": system.system_id,
        "system": system.name,
        "units_scored": sums["units"] - sums["excluded"],
        "excluded": len(system.excluded),
    }
    scored = [r for r in rows if r["status"] != "excluded"]
    for name, metric in METRICS.items():
        point = sums.get(name)  # None too where a unit lacks the metric's family (sum_units)
        row[name] = None if point is None else _percent(100 * point)
        if point is None:
            row[f"{name}_low"] = row[f"{name}_high"] = None
            continue
        interval = estimate(ratio(*recording_sums(metric, scored, recordings)), weights, confidence)
        row[f"{name}_low"], row[f"{name}_high"] = _percent(interval.low), _percent(interval.high)
    return row


def leaderboard_views(
    systems: Sequence[SystemUnits],
    recordings: Sequence[str],
    weights: np.ndarray,
    confidence: float,
) -> list[dict[str, Any]]:
    """Rows of every view (release, common, penalised), each view's systems in id order."""
    common = common_units(systems)
    return [
        view_row(s, view, view_rows(s, view, common), recordings, weights, confidence)
        for view in VIEWS
        for s in sorted(systems, key=lambda s: s.system_id)
    ]
