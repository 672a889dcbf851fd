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
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Write the leaderboard (official field layout, percent), its views and the per-condition
    tables.

    Every rate is a ratio of sums over units; excluded units are counted, not scored.
    leaderboard.csv/.json: the release view (each system on the units it scored);
    leaderboard_views.csv/.json: the release, common and penalised views
    (msbench.comparison.ground), every rate with its recording-level cluster-bootstrap
    interval, and rank groups from the comparison.
    """
    from msbench.catalog import BENCHMARK, BY_CONDITION, COMPARE_PAIRS, LEADERBOARD
    from msbench.columns import CONDITION_COLUMNS, LEADERBOARD_COLUMNS, LEADERBOARD_SHOWN
    from msbench.comparison.report import write_views
    from msbench.comparison.run import board_views
    from msbench.scoring.leaderboard import (
        condition_rows,
        leaderboard_rows,
        plot_conditions,
        read_evaluations,
    )
    from msbench.tables import markdown_table, read_rows, write_rows
    from msbench.textio import write_atomic, write_json

    selected = read_rows(BENCHMARK, benchmark)
    labels = {str(r["recording_id"]): r for r in selected}
    entries = read_evaluations(sorted(systems))
    conditions = [row for key, _, units in entries for row in condition_rows(key, units, labels)]
    board = leaderboard_rows(entries)
    pairs = read_rows(COMPARE_PAIRS, comparison) if comparison else None
    resolved = resolve_settings(config, settings)
    views, note, stated = board_views(sorted(systems), selected, resolved, pairs)
    write_rows(LEADERBOARD, out_dir / LEADERBOARD.name, board)
    release = [{c: r.get(c) for c in LEADERBOARD_COLUMNS} for r in board]
    write_json(out_dir / "leaderboard.json", release)
    write_views(out_dir, views, note, stated, markdown_table(board, LEADERBOARD_SHOWN))
    write_rows(BY_CONDITION, out_dir / BY_CONDITION.name, conditions)
    write_atomic(out_dir / "by_condition.md", markdown_table(conditions, CONDITION_COLUMNS[:12]))
    plot_conditions(conditions, out_dir / "by_condition.png")
    if note:
        print(f"msbench leaderboard: note: {note}")
