"""``msbench leaderboard``: every system's units together: leaderboard and per-condition tables."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg


def run(
    systems: Annotated[
        tuple[Path, ...],
        Arg("each system's evaluation folder (unit_scores.csv, score_summary.json)"),
    ],
    benchmark: Annotated[Path, Arg("benchmark.csv (labels, source, language, scenario)")],
    out_dir: Annotated[
        Path, Arg("folder for leaderboard.{csv,md,json} and by_condition.{csv,md,png}")
    ],
) -> None:
    """Write the leaderboard (official field layout, percent) and the per-condition tables.

    Every rate is a ratio of sums over units; excluded units are counted, not scored.
    """
    from msbench.catalog import BENCHMARK, BY_CONDITION, LEADERBOARD
    from msbench.columns import CONDITION_COLUMNS, LEADERBOARD_COLUMNS
    from msbench.scoring.leaderboard import (
        condition_rows,
        leaderboard_rows,
        plot_conditions,
        read_evaluations,
    )
    from msbench.tables import markdown_table, read_rows, write_rows
    from msbench.textio import write_atomic, write_json

    labels = {str(r["recording_id"]): r for r in read_rows(BENCHMARK, benchmark)}
    entries = read_evaluations(sorted(systems))
    conditions = [row for key, _, units in entries for row in condition_rows(key, units, labels)]
    board = leaderboard_rows(entries)
    write_rows(LEADERBOARD, out_dir / LEADERBOARD.name, board)
    write_json(
        out_dir / "leaderboard.json",
        [{c: row.get(c) for c in LEADERBOARD_COLUMNS} for row in board],
    )
    write_atomic(out_dir / "leaderboard.md", markdown_table(board, LEADERBOARD_COLUMNS[:11]))
    write_rows(BY_CONDITION, out_dir / BY_CONDITION.name, conditions)
    write_atomic(out_dir / "by_condition.md", markdown_table(conditions, CONDITION_COLUMNS[:12]))
    plot_conditions(conditions, out_dir / "by_condition.png")
