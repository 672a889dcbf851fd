"""The demo's results tree is fully declared (msbench.catalog): every CSV and JSON Lines file is
one declared table, with the declared columns in the declared order."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from msbench.catalog import CATALOG, table_of

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
    unused = (
        {t.path for t in CATALOG}
        - seen
        - {"results/audit/audit.csv", "results/audit/audit_summary.csv"}
    )
    assert len(unused) <= 2, unused  # the audit's tables need a release (config release:)
