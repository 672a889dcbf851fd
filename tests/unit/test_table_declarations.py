"""Every table is read and written through its declaration (msbench.catalog): no module reads or
writes one around it, and a file that is not the declared table is named with its fix."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from msbench import catalog
from msbench.catalog import (
    BENCHMARK,
    CATALOG,
    COMPARE_PAIRS,
    PAIRS,
    RENAMED,
    UNIT_SCORES,
    UNITS,
    Table,
    system_file,
    table_of,
)
from msbench.errors import InputError
from msbench.tables import read_rows, write_rows
from tests.helpers.paths import REPO

PACKAGE = REPO / "src/msbench"

#: The only modules that read or write text tables without a declaration, and why.
AROUND_THE_DECLARATIONS = {
    "tables.py": "the declarations' reader and writer",
    "textio.py": "the line-level reading and atomic writing under them",
    "ingest/sheet.py": "the dataset sheet: a settings file (TSV), not a table msbench writes",
    "review/build.py": "benchmark.csv's lines verbatim, which the page's export writes back",
    "export/bundle.py": "lhotse's own gzipped manifests (write_jsonl_gz)",
}
LOW_LEVEL = {"read_jsonl", "write_jsonl", "write_recorded", "DictReader", "reader", "writer"}


def calls(path: Path) -> list[ast.Call]:
    return [n for n in ast.walk(ast.parse(path.read_text())) if isinstance(n, ast.Call)]


def name_of(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def test_no_module_reads_or_writes_a_table_around_its_declaration():
    around = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE))
        if where in AROUND_THE_DECLARATIONS:
            continue
        for call in calls(path):
            if name_of(call.func) in LOW_LEVEL | {"read_table"}:
                around.append(f"{where}:{call.lineno}: {name_of(call.func)}")
    assert not around, around


def test_every_read_and_write_of_a_table_names_its_declaration():
    """The first argument of every read_rows / write_rows is a declared table (a name of
    msbench.catalog, or a loop variable over them: ``table``, ``batch``)."""
    declared = {name for name, value in vars(catalog).items() if isinstance(value, Table)}
    undeclared, seen = [], 0
    for path in sorted([*PACKAGE.rglob("*.py"), *(REPO / "tests").rglob("*.py")]):
        for call in calls(path):
            if name_of(call.func) in ("read_rows", "write_rows") and call.args:
                seen += 1
                first = name_of(call.args[0])
                if first not in declared | {"table", "batch"}:
                    undeclared.append(f"{path.relative_to(REPO)}:{call.lineno}: {first or '?'}")
    assert not undeclared, undeclared
    assert seen > 60  # every stage reads and writes through them


def test_declarations_are_unique_and_renamed_files_have_new_names():
    assert len({t.path for t in CATALOG}) == len(CATALOG)
    produced = [t for t in CATALOG if t.path.startswith("results/")]
    by_name: dict[str, set[tuple]] = {}
    for table in produced:
        by_name.setdefault(table.name, set()).add((table.columns, table.row))
    # one name, one table; except pairs.csv, which the comparison issue names for its own table
    # (results/evaluation/compare/pairs.csv, beside each system's speaker pairs: table_of tells
    # them apart by folder, the comparison's first)
    shared = {name for name, kinds in by_name.items() if len(kinds) > 1}
    assert shared == {"pairs.csv"}, by_name
    assert table_of("results/evaluation/compare/pairs.csv") is COMPARE_PAIRS
    assert table_of("results/evaluation/baseline/pairs.csv") is PAIRS
    assert set(RENAMED.values()) == {
        "units.csv",
        "utterances.csv",
        "recordings.csv",
        "summary.json",
    }


def test_a_file_lacking_a_declared_column_is_named_with_the_stage_that_writes_it(tmp_path: Path):
    path = tmp_path / "benchmark.csv"
    path.write_text("recording_id\na::b\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        read_rows(BENCHMARK, path)
    said = str(caught.value)
    assert "lacks duration_seconds" in said and "msbench select" in said and "line 1" in said
    scores = tmp_path / "unit_scores.csv"
    write_rows(UNITS, scores, [{"unit_id": "u", "recording_id": "a::b", "start": 0, "end": 1}])
    with pytest.raises(InputError, match="is not unit_scores.csv as msbench evaluate writes it"):
        read_rows(UNIT_SCORES, scores)


def test_an_evaluation_folder_written_before_the_renames_is_read_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
):
    (tmp_path / "units.csv").write_text("old\n")
    assert system_file(tmp_path, "unit_scores.csv") == tmp_path / "units.csv"
    note = capsys.readouterr().err
    assert "units.csv has the name msbench 0.1 gave it" in note and "msbench evaluate" in note
    (tmp_path / "unit_scores.csv").write_text("new\n")
    assert system_file(tmp_path, "unit_scores.csv") == tmp_path / "unit_scores.csv"
    assert capsys.readouterr().err == ""  # the new name wins, silently
