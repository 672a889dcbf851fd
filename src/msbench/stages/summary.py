"""``msbench summary``: hours, durations, speakers, overlap and counts of a manifest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def run(
    manifest: Annotated[
        Path,
        Arg("manifest (CSV/JSONL with official field names)"),
    ],
    figure: Annotated[Path | None, Arg("also draw its coverage figure to this PNG")] = None,
    compare: Annotated[
        Path | None, Arg("a second manifest (the official release) drawn beside it in --figure")
    ] = None,
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Print the summary of a manifest (CSV/JSONL with official field names) as JSON.

    Rows without `conditions` are labelled with the configured condition space
    first. The duration-weighted overlap is the total overlapped time over the
    total duration (each recording's overlap_ratio is of its duration).
    """
    from msbench.catalog import ANY_RECORDINGS
    from msbench.construction.benchmark_summary import summarize
    from msbench.construction.condition_space import build_condition_space, label_rows
    from msbench.tables import read_rows

    space = build_condition_space(resolve_settings(config, settings)["condition_space"])

    def labelled(path: Path) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = [dict(row) for row in read_rows(ANY_RECORDINGS, path)]
        return label_rows(rows, space) if any(not row.get("conditions") for row in rows) else rows

    rows = labelled(manifest)
    print(json.dumps(summarize(rows), ensure_ascii=False, indent=2))
    if figure:
        from msbench.construction.coverage_figure import plot_coverage

        plot_coverage(rows, space, figure, release=labelled(compare) if compare else None)
