"""``msbench select``: the integer program; benchmark.csv, metadata.jsonl, selection_report.json."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def run(
    pool: Annotated[Path, Arg("candidate pool (CSV)")],
    labelled: Annotated[Path, Arg("labelled recordings (for QC replacement)")],
    space: Annotated[Path, Arg("condition_space.yaml written by `bin`")],
    out_dir: Annotated[
        Path, Arg("folder for benchmark.csv, metadata.jsonl, selection_report.json")
    ],
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Solve the integer program: benchmark.csv, metadata.jsonl, selection_report.json.

    Exit status 3 when the constraints cannot all hold; the message names the
    smallest relaxation that works.
    """
    from msbench.columns import BENCHMARK_COLUMNS
    from msbench.construction.condition_space import read_condition_space
    from msbench.construction.manifests import official_metadata_row
    from msbench.construction.selection.selected import select_benchmark
    from msbench.tables import nonempty, read_table, write_csv, write_table_jsonl
    from msbench.textio import write_json

    resolved = resolve_settings(config, settings)
    candidates = nonempty(read_table(pool), pool)
    selection = select_benchmark(
        candidates,
        read_table(labelled),
        read_condition_space(space),
        resolved["selection"],
    )
    print(f"selection timing (s): {json.dumps(selection.timing)}", file=sys.stderr)
    for warning in selection.report["quality_control_warnings"]:
        print(f"msbench select: warning: {warning}", file=sys.stderr)
    write_csv(out_dir / "benchmark.csv", selection.rows, BENCHMARK_COLUMNS)
    metadata = (official_metadata_row(r) for r in selection.selected)
    write_table_jsonl(out_dir / "metadata.jsonl", metadata)
    write_json(out_dir / "selection_report.json", selection.report)
