"""``msbench leaderboard``'s files, from the evaluation folders **and the benchmark**: every
table and view is over the benchmark's recordings (a folder's units of other recordings are
left out and named; a benchmark unit a folder lacks is named, and charged as an empty hypothesis
in the penalised view where the references are given: :mod:`msbench.comparison.ground`). A
system of speaker times and no words (RTTM, pyannoteAI) has its DER row and empty WER columns,
and the note names it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

Row = Mapping[str, Any]


def der_only_note(board: Sequence[Mapping[str, Any]], note: str | None) -> str | None:
    """``note`` and the systems that have DER but no WER (speaker times, no words).

    >>> der_only_note([{"system_id": "rttm", "der": 3.1, "wer": None}], None)
    'DER only (speaker times, no words): rttm'
    """
    der_only = sorted(r["system_id"] for r in board if r["der"] is not None and r["wer"] is None)
    if not der_only:
        return note
    said = f"DER only (speaker times, no words): {', '.join(der_only)}"
    return f"{note}; {said}" if note else said


def write_leaderboard(
    systems: Sequence[Path],
    selected: Sequence[Row],
    out_dir: Path,
    config: Mapping[str, Any],
    pairs: Sequence[Row] | None,
    references: Mapping[str, Sequence[Any]] | None,
) -> str | None:
    """leaderboard.{csv,md,json}, leaderboard_views.{csv,json}, by_condition.{csv,md,png} in
    ``out_dir``; returns the note (what reading the folders changed, DER-only systems)."""
    from msbench.catalog import BY_CONDITION, LEADERBOARD
    from msbench.columns import CONDITION_COLUMNS, LEADERBOARD_COLUMNS, LEADERBOARD_SHOWN
    from msbench.comparison.report import write_views
    from msbench.comparison.run import board_views
    from msbench.scoring.leaderboard import (
        condition_rows,
        leaderboard_rows,
        plot_conditions,
        read_evaluations,
    )
    from msbench.tables import markdown_table, write_rows
    from msbench.textio import write_atomic, write_json

    labels = {str(r["recording_id"]): r for r in selected}
    entries = [
        (sid, name, [r for r in units if str(r["recording_id"]) in labels])
        for sid, name, units in read_evaluations(sorted(systems))
    ]
    conditions = [row for key, _, units in entries for row in condition_rows(key, units, labels)]
    board = leaderboard_rows(entries)
    views, note, stated = board_views(sorted(systems), selected, config, pairs, references)
    note = der_only_note(board, note)
    write_rows(LEADERBOARD, out_dir / LEADERBOARD.name, board)
    release = [{c: r.get(c) for c in LEADERBOARD_COLUMNS} for r in board]
    write_json(out_dir / "leaderboard.json", release)
    write_views(out_dir, views, note, stated, markdown_table(board, LEADERBOARD_SHOWN))
    write_rows(BY_CONDITION, out_dir / BY_CONDITION.name, conditions)
    write_atomic(out_dir / "by_condition.md", markdown_table(conditions, CONDITION_COLUMNS[:12]))
    plot_conditions(conditions, out_dir / "by_condition.png")
    return note
