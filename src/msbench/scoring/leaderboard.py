"""The leaderboard in the official ``leaderboard.json`` layout, and the per-condition tables.

Leaderboard rows: ``system_id, system, der, cpwer, tcpwer, wer`` in percent
(2 decimals, as the release), ``excluded``, ``soft_degradation``, then msbench's
additions: ``der_collar0``, ``tcorcwer``, the macro averages (``*_macro``,
labelled as such: means of per-unit rates) and the raw sums the ratios come
from. Rows are sorted by ``wer`` (as the release), then ``system_id``.

Per-condition rows: every metric per P/O/S/T/N range and per source, language
and scenario of the units' recordings (joined with ``benchmark.csv``), as
ratios of sums over those units.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.columns import AXES
from msbench.metrics import METRICS
from msbench.scoring.aggregate import (
    RATE_COLUMNS,
    group_rows,
    sum_units,
)

GROUPS = (*AXES, "source_dataset", "language", "scenario")
PERCENT_KEYS = (*RATE_COLUMNS, *(f"{k}_macro" for k in RATE_COLUMNS))


def as_percent(row: Mapping[str, Any]) -> dict[str, Any]:
    """Rates (fractions) as percent with 2 decimals, like the release's leaderboard."""
    return {
        k: (round(100 * v, 2) if k in PERCENT_KEYS and v is not None else v) for k, v in row.items()
    }


def read_evaluations(folders: Sequence[Path]) -> list[tuple[str, str, list[dict[str, Any]]]]:
    """Each system's id, name and unit scores, from its evaluation folder (``score_summary.json``
    and ``unit_scores.csv``; a folder written before the renames is read with a note)."""
    from msbench.catalog import SCORE_SUMMARY, UNIT_SCORES, system_file
    from msbench.tables import read_rows
    from msbench.textio import read_json

    entries = []
    for folder in folders:
        summary = read_json(system_file(folder, SCORE_SUMMARY))
        units = read_rows(UNIT_SCORES, system_file(folder, UNIT_SCORES.name))
        entries.append((str(summary["system_id"]), str(summary["system"]), units))
    return entries


def leaderboard_rows(
    systems: Sequence[tuple[str, str, Sequence[Mapping[str, Any]]]],
) -> list[dict[str, Any]]:
    """``(system_id, name, unit rows)`` per system -> leaderboard rows, best WER first."""
    rows = [
        as_percent({"system_id": sid, "system": name, **sum_units(units)})
        for sid, name, units in systems
    ]
    return sorted(rows, key=lambda r: (r["wer"] is None, r["wer"] or 0.0, r["system_id"]))


def condition_rows(
    system: str, units: Sequence[Mapping[str, Any]], benchmark: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    out = []
    for group in GROUPS:
        grouped = group_rows(
            units, lambda r, g=group: [str(benchmark.get(r["recording_id"], {}).get(g))]
        )
        for value, members in grouped.items():
            out.append(
                as_percent({"system": system, "group": group, "value": value, **sum_units(members)})
            )
    return out


def plot_conditions(rows: Sequence[Mapping[str, Any]], path: str | Path) -> None:
    """The release's metrics (DER, cpWER, tcpWER, WER) per range of each axis, one bar per
    system."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    metrics = [m.name for m in METRICS if m.release]
    systems = sorted({r["system"] for r in rows})
    figure, grid = plt.subplots(
        len(metrics),
        len(AXES),
        figsize=(3.2 * len(AXES), 2.6 * len(metrics)),
        squeeze=False,
        layout="constrained",
    )
    for column, axis in enumerate(AXES):
        values = sorted({r["value"] for r in rows if r["group"] == axis})
        for line, metric in enumerate(metrics):
            panel = grid[line][column]
            width = 0.8 / max(1, len(systems))
            for k, system in enumerate(systems):
                by_value = {
                    r["value"]: r[metric]
                    for r in rows
                    if r["group"] == axis and r["system"] == system
                }
                heights = [by_value.get(v) or 0.0 for v in values]
                positions = [i + (k - (len(systems) - 1) / 2) * width for i in range(len(values))]
                panel.bar(positions, heights, width, label=system)
            panel.set_xticks(range(len(values)), values, fontsize=8)
            panel.set_title(f"{metric} (%) by {axis}", fontsize=9)
    grid[0][0].legend(fontsize=7)
    figure.savefig(path, dpi=100, metadata={"Software": "msbench", "Creation Time": None})
    plt.close(figure)
