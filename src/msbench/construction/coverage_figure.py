"""The coverage figures: what the benchmark covers, against what the pool (and the release) offer.

``coverage.png``: per axis (and the source mix), recordings (top) and hours
(bottom; minutes for small sets) per range, as grouped bars: the candidate
pool, the selection, and, when given, the official release. Tick labels carry
the range's values (``O3 [0.2, 0.4)``); count axes have integer ticks.

``profile_coverage.png``: for every pair of axes, a heatmap of the condition
combinations: each cell is ``selected / available`` recordings, so a user sees
which combinations the benchmark lacks (empty cells: none in the pool).

Both are written with matplotlib's Agg backend and a fixed creation date, so
the same inputs give the same bytes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any

from msbench.construction.condition_space import Axis, ConditionSpace

AXIS_TITLES = {"P": "speakers", "O": "overlap", "S": "similarity", "T": "turn gap", "N": "noise"}
Rows = Sequence[Mapping[str, Any]]
SERIES_COLOURS = {"pool": "#c6d4e1", "selected": "#2f6690", "release": "#d08040"}
PNG_METADATA = {"Software": "msbench", "Creation Time": None}


def range_ticks(axis: Axis) -> list[str]:
    """``O3 [0.2, 0.4)`` style tick labels (label, then its interval)."""
    return [f"{r['label']}\n{r['interval']}" for r in axis.describe_ranges()]


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _series(groups: Mapping[str, Rows], key: Any, labels: Sequence[str], scale: float) -> dict:
    """Per series: (counts, hours * scale) per label, ``key(row)`` giving a row's label."""
    out = {}
    for name, rows in groups.items():
        counts: Counter[str] = Counter()
        hours: dict[str, float] = {}
        for row in rows:
            label = key(row)
            counts[label] += 1
            hours[label] = hours.get(label, 0.0) + float(row["duration_seconds"]) / 3600 * scale
        out[name] = (
            [counts[label] for label in labels],
            [hours.get(label, 0.0) for label in labels],
        )
    return out


def _bars(panels: Any, ticks: Sequence[str], series: dict, title: str) -> None:
    from matplotlib.ticker import MaxNLocator

    width = 0.8 / max(1, len(series))
    for k, (name, values) in enumerate(series.items()):
        positions = [i + (k - (len(series) - 1) / 2) * width for i in range(len(ticks))]
        for row, data in enumerate(values):
            panels[row].bar(positions, data, width, label=name, color=SERIES_COLOURS[name])
    panels[0].set_title(title, fontsize=10)
    panels[0].yaxis.set_major_locator(MaxNLocator(integer=True))
    for panel in panels:
        panel.set_xticks(range(len(ticks)), ticks, fontsize=7)


def _source_bars(panels: Any, sources: Sequence[str], series: dict, unit: str) -> None:
    """The source mix as horizontal bars, so that long corpus names stay readable."""
    height = 0.8 / max(1, len(series))
    for k, (name, values) in enumerate(series.items()):
        positions = [i + (k - (len(series) - 1) / 2) * height for i in range(len(sources))]
        for row, data in enumerate(values):
            panels[row].barh(positions, data, height, label=name, color=SERIES_COLOURS[name])
    for panel, what in zip(panels, ("recordings", unit), strict=True):
        panel.set_title(f"source mix ({what})", fontsize=10)
    for panel in panels:
        panel.set_yticks(range(len(sources)), sources, fontsize=6)
        panel.invert_yaxis()


def plot_coverage(
    selected: Rows,
    space: ConditionSpace,
    path: str | Path,
    pool: Rows | None = None,
    release: Rows | None = None,
) -> None:
    """Pool vs selection (vs release) per axis and per source, counts and hours."""
    plt = _pyplot()
    groups: dict[str, Rows] = {}
    if pool is not None:
        groups["pool"] = pool
    groups["selected"] = selected
    if release is not None:
        groups["release"] = release
    total_hours = (
        max(sum(float(r["duration_seconds"]) for r in rows) for rows in groups.values()) / 3600
    )
    scale, unit = (1.0, "hours") if total_hours >= 2 else (60.0, "minutes")
    sources = sorted({str(r["source_dataset"]) for rows in groups.values() for r in rows})
    columns = len(space.axes)
    figure = plt.figure(figsize=(3.4 * columns, 6.0 + 0.22 * len(sources)), layout="constrained")
    layout = figure.add_gridspec(3, 2 * columns, height_ratios=[1, 1, 0.25 + 0.07 * len(sources)])
    for column, axis in enumerate(space.axes):
        panels = [figure.add_subplot(layout[row, 2 * column : 2 * column + 2]) for row in (0, 1)]
        labels = list(axis.labels)
        series = _series(
            groups, lambda r, a=axis: (r.get("conditions") or {}).get(a.name), labels, scale
        )
        title = f"{axis.name}: {AXIS_TITLES.get(axis.name, axis.field)}"
        _bars(panels, range_ticks(axis), series, title)
        if column == 0:
            panels[0].set_ylabel("recordings")
            panels[1].set_ylabel(unit)
            panels[0].legend(fontsize=8)
    source_panels = [
        figure.add_subplot(layout[2, :columns]),
        figure.add_subplot(layout[2, columns:]),
    ]
    series = _series(groups, lambda r: str(r["source_dataset"]), sources, scale)
    _source_bars(source_panels, sources, series, unit)
    source_panels[0].set_xlabel("recordings")
    source_panels[1].set_xlabel(unit)
    counts = ", ".join(
        f"{name} {len(rows)} ({sum(float(r['duration_seconds']) for r in rows) / 3600:.2f} h)"
        for name, rows in groups.items()
    )
    figure.suptitle(f"Condition coverage: {counts}")
    figure.savefig(path, dpi=100, metadata=PNG_METADATA)
    plt.close(figure)


def plot_profile_heatmap(
    selected: Rows, pool: Rows, space: ConditionSpace, path: str | Path
) -> None:
    """For each pair of axes, cells ``selected / available`` over their range combinations."""
    plt = _pyplot()
    pairs = list(combinations(space.axes, 2))
    figure, grid = plt.subplots(
        2, (len(pairs) + 1) // 2, figsize=(3.3 * ((len(pairs) + 1) // 2), 6.6), squeeze=False
    )
    panels = [panel for row in grid for panel in row]
    for panel, (a, b) in zip(panels, pairs, strict=False):

        def cells(rows: Rows, a: Axis = a, b: Axis = b) -> Counter[tuple[Any, Any]]:
            return Counter(
                ((r.get("conditions") or {}).get(a.name), (r.get("conditions") or {}).get(b.name))
                for r in rows
            )

        have, took = cells(pool), cells(selected)
        share = [
            [(took[(x, y)] / have[(x, y)]) if have[(x, y)] else float("nan") for x in a.labels]
            for y in b.labels
        ]
        panel.imshow(share, vmin=-0.25, vmax=1, cmap="Blues", origin="lower", aspect="auto")
        for j, y in enumerate(b.labels):
            for i, x in enumerate(a.labels):
                if have[(x, y)]:
                    colour = "white" if took[(x, y)] / have[(x, y)] > 0.6 else "black"
                    panel.text(
                        i,
                        j,
                        f"{took[(x, y)]}/{have[(x, y)]}",
                        ha="center",
                        va="center",
                        fontsize=7,
                        color=colour,
                    )
        panel.set_xticks(range(len(a.labels)), a.labels, fontsize=7)
        panel.set_yticks(range(len(b.labels)), b.labels, fontsize=7)
        panel.set_title(f"{a.name} x {b.name}", fontsize=9)
    for panel in panels[len(pairs) :]:
        panel.axis("off")
    figure.suptitle(
        "Profile coverage: recordings selected / available in the pool (blank: none available)"
    )
    figure.tight_layout()
    figure.savefig(path, dpi=100, metadata=PNG_METADATA)
    plt.close(figure)
