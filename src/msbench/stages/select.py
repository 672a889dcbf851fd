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
    from msbench.catalog import BENCHMARK, CANDIDATES, LABELLED, METADATA
    from msbench.construction.condition_space import read_condition_space
    from msbench.construction.manifests import official_metadata_row
    from msbench.construction.selection.selected import select_benchmark
    from msbench.tables import nonempty, read_rows, write_rows
    from msbench.textio import write_json

    resolved = resolve_settings(config, settings)
    candidates = nonempty(read_rows(CANDIDATES, pool), pool)
    selection = select_benchmark(
        candidates,
        read_rows(LABELLED, labelled),
        read_condition_space(space),
        resolved["selection"],
    )
    print(f"selection timing (s): {json.dumps(selection.timing)}", file=sys.stderr)
    for warning in selection.report["quality_control_warnings"]:
        print(f"msbench select: warning: {warning}", file=sys.stderr)
    write_rows(BENCHMARK, out_dir / BENCHMARK.name, selection.rows)
    metadata = (official_metadata_row(r) for r in selection.selected)
    write_rows(METADATA, out_dir / METADATA.name, metadata)
    write_json(out_dir / "selection_report.json", selection.report)
