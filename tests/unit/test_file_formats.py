"""One format registry (msbench.io.registry): every reader, choice and schema enum names it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from msbench.config import load_schema
from msbench.io.registry import ANNOTATION_FORMATS, REGISTRY, SCORING_FORMATS, closest_formats
from tests.helpers.paths import REPO

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core


def test_the_annotation_readers_and_the_sheet_schema_name_the_registrys_formats():
    from msbench.ingest.adapters import READERS

    assert set(READERS) | {"lhotse"} == set(ANNOTATION_FORMATS)
    adapter = load_schema("datasets.schema.yaml")["properties"]["adapter"]["enum"]
    assert tuple(adapter) == ANNOTATION_FORMATS


def test_the_systems_format_key_and_the_score_command_name_the_scoring_formats():
    systems = load_schema("config.schema.yaml")["properties"]["systems"]["items"]
    assert tuple(systems["properties"]["format"]["enum"]) == SCORING_FORMATS
    from msbench.io.read import SUFFIX_FORMATS

    assert set(SUFFIX_FORMATS.values()) <= set(SCORING_FORMATS)


def test_every_annotation_format_is_accepted_by_describe(tmp_path: Path):
    """`describe --format magicdata` was refused by argparse while detection told users to pass it."""
    (tmp_path / "s1.txt").write_text("[0.000,2.000]\tG0001\tfemale\thello\n", encoding="utf-8")
    for name in ANNOTATION_FORMATS:
        done = subprocess.run(
            [sys.executable, "-m", "msbench.cli", "describe", "--format", name, str(tmp_path / "s1.txt")],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert "invalid choice" not in done.stderr, (name, done.stderr)


def test_a_misspelt_format_names_the_closest():
    assert closest_formats("segslt", SCORING_FORMATS).startswith("did you mean 'seglst'?")
    assert "did you mean" not in closest_formats("xyz", ANNOTATION_FORMATS)
    assert len({f.name for f in REGISTRY}) == len(REGISTRY)
    assert (REPO / "src/msbench/io/registry.py").exists()


def test_the_export_command_and_the_config_name_the_same_export_formats():
    from msbench.export.writers import EXPORTS
    from msbench.stages.export import EXPORTS as CHOICES

    export = load_schema("config.schema.yaml")["properties"]["export"]["properties"]["formats"]
    assert CHOICES == EXPORTS and tuple(export["items"]["enum"]) == EXPORTS


def test_no_other_module_lists_the_format_names():
    """A list, tuple, set or dict of three or more format names anywhere else is a copy that can
    drift (the schema YAMLs name none: their enums are filled from the registry)."""
    import ast

    names = {f.name for f in REGISTRY}
    copies = []
    for path in sorted((REPO / "src/msbench").rglob("*.py")):
        if path.name == "registry.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
            if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) and items:
                found = {i.value for i in items if isinstance(i, ast.Constant) and i.value in names}
                if len(found) >= 3:
                    copies.append(f"{path.relative_to(REPO)}:{node.lineno}: {sorted(found)}")
    import yaml

    def enums(node: object) -> list[list[object]]:
        if isinstance(node, dict):
            own = [node["enum"]] if isinstance(node.get("enum"), list) else []
            return own + [e for v in node.values() for e in enums(v)]
        return [e for v in node for e in enums(v)] if isinstance(node, list) else []

    for schema in ("datasets.schema.yaml", "config.schema.yaml"):
        raw = yaml.safe_load((REPO / "src/msbench/schemas" / schema).read_text(encoding="utf-8"))
        copies += [f"{schema}: {e}" for e in enums(raw) if len(names & set(map(str, e))) >= 3]
    assert not copies, copies


def test_a_toy_format_needs_one_module_and_one_registry_line(tmp_path: Path, monkeypatch):
    """The module is tests/fixtures/toy_format/toy_tsv.py; the line is the FileFormat below."""
    import importlib.util

    from msbench.io import registry
    from msbench.io.read import read_output
    from msbench.scoring.pipeline import score_pair

    spec = importlib.util.spec_from_file_location(
        "toy_tsv", REPO / "tests/fixtures/toy_format/toy_tsv.py"
    )
    assert spec is not None and spec.loader is not None
    toy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(toy)
    line = registry.FileFormat("toy", "a toy", (".toy",), segments=toy.read_toy, detect=toy.detect)
    monkeypatch.setattr(registry, "REGISTRY", (line, *registry.REGISTRY))
    monkeypatch.setattr(registry, "BY_NAME", {f.name: f for f in registry.REGISTRY})
    (tmp_path / "u.toy").write_text("#toy\n0.5\t2.0\tA\thello there\n2.5\t4.0\tB\thi\n")
    (tmp_path / "u.dat").write_text("#toy\n0.5\t2.0\tA\thello there\n")
    (tmp_path / "ref.stm").write_text("u 1 A 0.5 2.0 hello there\nu 1 B 2.5 4.0 hi\n")
    by_name, by_content = read_output(tmp_path / "u.toy"), read_output(tmp_path / "u.dat")
    assert (by_name.format, by_name.chosen_by) == ("toy", "file name")
    assert (by_content.format, by_content.chosen_by) == ("toy", "content")
    scores = score_pair(read_output(tmp_path / "ref.stm").segments, by_name.segments)
    assert scores["cpwer"]["errors"] == 0 and scores["cpwer"]["length"] == 3
