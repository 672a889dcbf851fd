"""The demo's results tree is fully declared (msbench.catalog): every CSV and JSON Lines file is
one declared table, with the declared columns in the declared order."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from msbench.catalog import CATALOG, RENAMED, table_of

pytestmark = pytest.mark.slow


def header(path: Path) -> tuple[str, ...] | None:
    with path.open(encoding="utf-8", newline="") as stream:
        if path.suffix == ".csv":
            return tuple(next(csv.reader(stream)))
        line = stream.readline()
        return tuple(json.loads(line)) if line.strip() else None


def test_every_table_under_results_is_declared_with_its_columns(demo_run: Path):
    problems, seen = [], set()
    for path in sorted((demo_run / "results").rglob("*")):
        relative = path.relative_to(demo_run)
        if path.suffix not in (".csv", ".jsonl") or path.name.startswith("."):
            continue
        if relative.parts[1] in ("review", "export"):  # a site and exports: their own formats
            continue
        table = table_of(str(relative))
        if table is None:
            problems.append(f"{relative}: no declaration in msbench.catalog")
            continue
        seen.add(table.path)
        found = header(path)
        if table.columns is not None and found is not None and found != table.columns:
            problems.append(f"{relative}: header {found[:4]}... is not {table.columns[:4]}...")
    assert not problems, problems
    produced = {t.path for t in CATALOG if t.stage != "(input)"}
    unused = produced - seen - {"results/audit/audit.csv", "results/audit/audit_summary.csv"}
    assert not unused, unused  # the audit's tables need a release (config release:)


def test_the_leaderboard_reads_an_evaluation_folder_with_the_old_names_and_says_so(
    demo_run: Path, tmp_path: Path
):
    """A system folder written before the renames (units.csv, summary.json, ...) gives the same
    leaderboard as today's, with a note naming each old file."""
    new = demo_run / "results/evaluation/baseline"
    old = tmp_path / "baseline"
    old.mkdir()
    for path in new.iterdir():  # its tables (a folder of 0.1 had no alignments/)
        if path.is_file() and not path.name.startswith("."):
            shutil.copy(path, old / RENAMED.get(path.name, path.name))
    for name, before in RENAMED.items():  # the files' integrity records travel with them
        record = new / f".{name}.written"
        if record.exists():
            shutil.copy(record, old / f".{before}.written")
    assert (old / "units.csv").exists() and not (old / "unit_scores.csv").exists()
    boards = {}
    for label, folder in (("new", new), ("old", old)):
        done = subprocess.run(
            [sys.executable, "-m", "msbench.cli", "leaderboard", "--benchmark",
             str(demo_run / "results/manifests/benchmark.csv"), "--systems", str(folder),
             "--out-dir", str(tmp_path / label)],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        boards[label] = (tmp_path / label / "leaderboard.csv").read_bytes(), done.stderr
    assert boards["old"][0] == boards["new"][0]
    assert "units.csv has the name msbench 0.1 gave it" in boards["old"][1]
    assert "score_summary.json" in boards["old"][1] and "msbench 0.1" not in boards["new"][1]
