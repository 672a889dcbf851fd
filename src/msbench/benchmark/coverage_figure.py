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
    for column, axis in enumerate(space.axes):
        labels = list(axis.labels)
        counts = [
            sum(1 for r in rows if r["conditions"].get(axis.name) == label) for label in labels
        ]
        hours = [
            sum(
                float(r["duration_seconds"])
                for r in rows
                if r["conditions"].get(axis.name) == label
            )
            / 3600
            for label in labels
        ]
        for row, (values, unit) in enumerate(((counts, "recordings"), (hours, "hours"))):
            panel = grid[row][column]
            panel.bar(labels, values, color="#4878a8" if row == 0 else "#d08040")
            panel.set_title(
                f"{axis.name}: {AXIS_TITLES.get(axis.name, axis.field)}" if row == 0 else ""
            )
            if column == 0:
                panel.set_ylabel(unit)
            for x, value in enumerate(values):
                panel.annotate(
                    f"{value:.0f}" if row == 0 else f"{value:.1f}",
                    (x, value),
                    ha="center",
                    va="bottom",
                    fontsize=8,
                )
    figure.suptitle(
        f"Condition coverage: {len(rows)} recordings, "
        f"{sum(float(r['duration_seconds']) for r in rows) / 3600:.2f} h"
    )
    figure.tight_layout()
    target = Path(path)
    temporary = target.with_name(f".{target.name}.tmp.png")
    figure.savefig(temporary, dpi=100, metadata={"Software": None})
    plt.close(figure)
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary.replace(target)
