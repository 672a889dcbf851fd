"""The diagnostics figures: E_lex/E_seg stacked bars (MS-Bench Fig. 2), per-condition bars.

matplotlib's Agg backend, no creation date in the PNG metadata (byte-identical
reruns), written to a temporary file and renamed (never half-written).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from msbench.textio import make_folder

PNG_METADATA = {"Software": "msbench", "Creation Time": None}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save(figure: Any, path: str | Path) -> None:
    target = Path(path)
    make_folder(target.parent)
    temporary = target.with_name(f".{target.name}.tmp.png")
    figure.savefig(temporary, dpi=100, metadata=PNG_METADATA)
    os.replace(temporary, target)


def plot_decomposition(systems: Sequence[dict[str, Any]], path: str | Path) -> None:
    """Stacked E_lex + E_seg bars per system (their sum is the speaker-agnostic WER)."""
    plt = _pyplot()
    names = [s["system"] for s in systems]
    values = {
        label: [
            next(x["value"] for x in s["decomposition"]["series"] if x["label"] == label) or 0.0
            for s in systems
        ]
        for label in ("E_lex", "E_seg")
    }
    figure, axis = plt.subplots(figsize=(10.0, 1.6 + 0.5 * len(names)))
    axis.barh(names, values["E_lex"], label="E_lex (S + I_lex + D_lex)", color="#4c72b0")
    axis.barh(
        names, values["E_seg"], left=values["E_lex"], label="E_seg (I_seg + D_seg)", color="#dd8452"
    )
    axis.invert_yaxis()  # the first system on top
    axis.set_xlabel("% of reference tokens")
    axis.set_title("Error decomposition: E_lex + E_seg = speaker-agnostic WER", fontsize=10)
    axis.legend(frameon=False, loc="lower right", fontsize=8)
    figure.tight_layout()
    save(figure, path)
    plt.close(figure)


def plot_conditions(systems: Sequence[dict[str, Any]], path: str | Path) -> None:
    """One panel per analysis: its headline series per system, with the bootstrap interval."""
    plt = _pyplot()
    if not systems:
        return
    names = list(systems[0]["analyses"])
    figure, axes = plt.subplots(1, len(names), figsize=(3.2 * len(names), 4.0), squeeze=False)
    for axis, name in zip(axes[0], names, strict=True):
        analysis = systems[0]["analyses"][name]
        headline = [k for k, s in enumerate(analysis["series"]) if s["headline"]]
        width = 0.8 / max(1, len(systems))
        for j, system in enumerate(systems):
            series = [system["analyses"][name]["series"][k] for k in headline]
            x = [k + j * width for k in range(len(series))]
            # an undefined value (n/a) draws no bar; a value without interval no whisker
            value = [s["value"] if s["value"] is not None else float("nan") for s in series]
            low = [v - (s["interval"] or [v, v])[0] for v, s in zip(value, series, strict=True)]
            high = [(s["interval"] or [v, v])[1] - v for v, s in zip(value, series, strict=True)]
            axis.bar(
                x, value, width, yerr=[low, high], capsize=3, label=system["system"], color=f"C{j}"
            )
        axis.set_xticks([k + 0.4 - width / 2 for k in range(len(headline))])
        axis.set_xticklabels(
            [analysis["series"][k]["label"] for k in headline], rotation=15, fontsize=8
        )
        axis.axhline(0, color="black", linewidth=0.6)
        axis.set_title(name, fontsize=10)
    handles, labels = axes[0][0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=min(3, len(labels)), frameon=False)
    figure.suptitle(
        "Condition analyses (95 % recording-level cluster-bootstrap intervals; no bar: n/a)"
    )
    figure.tight_layout(rect=(0, 0.12, 1, 1))
    save(figure, path)
    plt.close(figure)
