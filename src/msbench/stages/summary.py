"""``msbench summary``: hours, durations, speakers, overlap and counts of a manifest."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def run(
    manifest: Annotated[
        Path,
        Arg("manifest (CSV/JSONL with official field names)", positional=True, metavar="MANIFEST"),
    ],
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Print the summary of a manifest (CSV/JSONL with official field names) as JSON.

    Rows without `conditions` are labelled with the configured condition space first.
    """
    from msbench.benchmark.conditions import build_condition_space, label_rows
    from msbench.benchmark.summary import summarize
    from msbench.tables import read_table

    rows = read_table(manifest)
    if any(not row.get("conditions") for row in rows):
        space = build_condition_space(resolve_settings(config, settings)["condition_space"])
        rows = label_rows(rows, space)
    print(json.dumps(summarize(rows), ensure_ascii=False, indent=2))
