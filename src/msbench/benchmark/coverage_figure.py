"""The coverage figure (like the paper's Figure 1): per axis, recordings and hours per range."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.benchmark.conditions import ConditionSpace

AXIS_TITLES = {"P": "speakers", "O": "overlap", "S": "similarity", "T": "turn gap", "N": "noise"}


def plot_coverage(
    rows: Sequence[Mapping[str, Any]], space: ConditionSpace, path: str | Path
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, grid = plt.subplots(
        2, len(space.axes), figsize=(3 * len(space.axes), 5.2), squeeze=False
    )
    total_hours = sum(float(r["duration_seconds"]) for r in rows) / 3600
    scale, unit = (1.0, "hours") if total_hours >= 2 else (60.0, "minutes")
    for column, axis in enumerate(space.axes):
        labels = list(axis.labels)
        members = [[r for r in rows if r["conditions"].get(axis.name) == label] for label in labels]
        counts = [len(group) for group in members]
        durations = [
            sum(float(r["duration_seconds"]) for r in group) / 3600 * scale for group in members
        ]
        series: list[tuple[list[int] | list[float], str]] = [
            (counts, "recordings"),
            (durations, unit),
        ]
        for row, (values, ylabel) in enumerate(series):
            panel = grid[row][column]
            panel.bar(labels, values, color="#4878a8" if row == 0 else "#d08040")
            if row == 0:
                panel.set_title(f"{axis.name}: {AXIS_TITLES.get(axis.name, axis.field)}")
            if column == 0:
                panel.set_ylabel(ylabel)
            for x, value in enumerate(values):
                text = f"{value:.0f}" if row == 0 else f"{value:.1f}"
                panel.annotate(text, (x, value), ha="center", va="bottom", fontsize=8)
    figure.suptitle(f"Condition coverage: {len(rows)} recordings, {total_hours:.2f} h")
    figure.tight_layout()
    target = Path(path)
    temporary = target.with_name(f".{target.name}.tmp.png")
    figure.savefig(temporary, dpi=100, metadata={"Software": None})
    plt.close(figure)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary.replace(target)
