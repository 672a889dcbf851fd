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
        # a rate is not below 0: a t-interval's low end is cut there (coverage can only grow)
        low = None if interval.low is None else max(0.0, interval.low)
        row[f"{name}_low"], row[f"{name}_high"] = low, interval.high
    return {**row, **worst_unit(scored)}


def worst_unit(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The unit of ``rows`` with the highest cpWER (DER where no unit has words), in percent:
    what the penalised view's charge of an excluded unit (the empty hypothesis: 100 % of its
    words, of its speech time) is to be read against, since an output that inserts more than
    the reference holds scores above 100 % (``docs/concepts/comparison.md``).

    >>> worst_unit([{"unit_id": "a", "cp_errors": 3, "cp_length": 2},
    ...             {"unit_id": "b", "cp_errors": 1, "cp_length": 4}])
    {'worst_unit': 'a', 'worst_unit_metric': 'cpwer', 'worst_unit_rate': 150.0}
    """
    for name in ("cpwer", "der"):
        metric = METRICS[name]
        rates = [
            (
                100 * sum(float(r.get(c) or 0) for c in metric.numerators) / float(den),
                str(r["unit_id"]),
            )
            for r in rows
            if (den := r.get(metric.denominator)) not in (None, "", 0)
        ]
        if rates:
            rate, unit = max(rates, key=lambda x: (x[0], x[1]))
            return {"worst_unit": unit, "worst_unit_metric": name, "worst_unit_rate": rate}
    return {"worst_unit": None, "worst_unit_metric": None, "worst_unit_rate": None}


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
