"""``msbench diagnose``: the five condition analyses of one system (``conditions.json``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def run(
    system_dir: Annotated[
        Path,
        Arg("the system's evaluation folder (unit_scores.csv, utterance_scores.csv, pairs.csv)"),
    ],
    benchmark: Annotated[Path, Arg("benchmark.csv (source, P, speakers, overlap, d_N)")],
    similarity: Annotated[Path, Arg("speaker_similarity.jsonl (the CAM++ pairwise matrices)")],
    out: Annotated[Path, Arg("conditions.json to write")],
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Run the overlap, similarity, acoustic, turn and speaker analyses of one system.

    Every value comes with a 95 % recording-level cluster-bootstrap interval
    (resamples and seed from the config's diagnostics.bootstrap) and is
    significant when the interval excludes 0.
    """
    from msbench.catalog import BENCHMARK
    from msbench.diagnostics.analysis_inputs import load_system
    from msbench.diagnostics.system import diagnose_system
    from msbench.tables import read_rows
    from msbench.textio import write_json

    resolved = resolve_settings(config, settings)
    selected = [dict(row) for row in read_rows(BENCHMARK, benchmark)]
    tables = load_system(system_dir, selected, similarity)
    write_json(out, diagnose_system(tables, resolved["diagnostics"], resolved["scoring"]))
