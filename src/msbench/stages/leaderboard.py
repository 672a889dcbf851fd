"""``msbench leaderboard``: every system's units together: leaderboard and per-condition tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def run(
    systems: Annotated[
        tuple[Path, ...],
        Arg("each system's evaluation folder (unit_scores.csv, score_summary.json)"),
    ],
    benchmark: Annotated[Path, Arg("benchmark.csv (labels, source, language, scenario)")],
    out_dir: Annotated[
        Path,
        Arg("folder for leaderboard.{csv,md,json}, leaderboard_views.{csv,json}, by_condition.*"),
    ],
    comparison: Annotated[
        Path | None, Arg("compare's pairs.csv: the rank groups (none: one system)")
    ] = None,
    references: Annotated[
        Path | None,
        Arg("utterances.csv: a unit a folder lacks is charged (default: beside --benchmark)"),
    ] = None,
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Write the leaderboard (official field layout, percent), its views and the per-condition
    tables.

    Every rate is a ratio of sums over units; excluded units are counted, not scored. Every
    table is over the benchmark's recordings: a folder's units of other recordings are left out
    and named; a benchmark unit a folder lacks is named, and charged as an empty hypothesis in
    the penalised view where the references are given. A system with speaker times but no
    words (RTTM) has its DER row and empty WER columns, named under the table.
    leaderboard.csv/.json: the release view (each system on the units it scored);
    leaderboard_views.csv/.json: the release, common and penalised views
    (msbench.comparison.ground), every rate with its recording-level cluster-bootstrap
    interval, and rank groups from the comparison.
    """
    from msbench.api.systems import benchmark_references
    from msbench.catalog import BENCHMARK, COMPARE_PAIRS
    from msbench.comparison.board import write_leaderboard
    from msbench.tables import read_rows

    selected = read_rows(BENCHMARK, benchmark)
    pairs = read_rows(COMPARE_PAIRS, comparison) if comparison else None
    resolved = resolve_settings(config, settings)
    known = benchmark_references(benchmark, references)
    note = write_leaderboard(systems, selected, out_dir, resolved, pairs, known)
    if note:
        print(f"msbench leaderboard: note: {note}")
