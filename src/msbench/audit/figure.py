"""The audit figure: rebuilt against published values per axis, with the range edges drawn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.columns import AXES
from msbench.construction.condition_space import ConditionSpace


def plot_audit(rows: Sequence[Mapping[str, Any]], space: ConditionSpace, path: str | Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, panels = plt.subplots(
        1, len(AXES), figsize=(3.4 * len(AXES), 3.6), squeeze=False, layout="constrained"
    )
    for panel, axis in zip(panels[0], AXES, strict=True):
        points = [
            (r["published"], r["rebuilt"])
            for r in rows
            if r["axis"] == axis and r["abs_diff"] is not None
        ]
        field = space.axis(axis).field
        if points:
            xs, ys = zip(*points, strict=True)
            low, high = min(*xs, *ys), max(*xs, *ys)
            pad = 0.05 * (high - low or 1.0)
            panel.plot([low - pad, high + pad], [low - pad, high + pad], color="#999999", lw=0.8)
            panel.scatter(xs, ys, s=14, color="#2f6690")
        else:
            panel.text(
                0.5, 0.5, "not computed", ha="center", va="center", transform=panel.transAxes
            )
        for edge in space.axis(axis).edges:
            panel.axvline(edge, color="#d08040", lw=0.6, ls="--")
            panel.axhline(edge, color="#d08040", lw=0.6, ls="--")
        panel.set_title(f"{axis}: {field}", fontsize=9)
        panel.set_xlabel("published", fontsize=8)
        panel.set_ylabel("rebuilt", fontsize=8)
    figure.suptitle("Rebuild vs published release (dashed: range edges)")
    figure.savefig(path, dpi=100, metadata={"Software": "msbench", "Creation Time": None})
    plt.close(figure)
