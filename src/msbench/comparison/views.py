"""The leaderboard's views with intervals: every rate with its interval over recordings
(leaderboard_views.csv, full precision; pages show two decimals).

The point value of each rate is the leaderboard's own (a ratio of sums over the view's units,
:func:`msbench.scoring.aggregate.sum_units`), in percent; the interval is
:data:`msbench.diagnostics.intervals.METHOD` (the jackknife over recordings with Student's t),
none below 3 recordings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from msbench.comparison.ground import VIEWS, SystemUnits, common_units, view_rows
from msbench.comparison.metrics import METRICS, recording_sums
from msbench.diagnostics.bootstrap import estimate, ratio
from msbench.scoring.aggregate import sum_units


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
        row[name] = None if point is None else 100 * point
        if point is None:
            row[f"{name}_low"] = row[f"{name}_high"] = None
            continue
        interval = estimate(ratio(*recording_sums(metric, scored, recordings)), weights, confidence)
        row[f"{name}_low"], row[f"{name}_high"] = interval.low, interval.high
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
