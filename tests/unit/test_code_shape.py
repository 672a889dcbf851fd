"""The layout rules of the package: small modules, short functions (README "Development")."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.paths import REPO

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
SOURCES = sorted((REPO / "src" / "msbench").rglob("*.py"))


def test_no_module_over_400_lines():
    long = {
        str(p.relative_to(REPO)): n
        for p in SOURCES
        if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not long, long


def test_no_function_over_60_lines():
    long = {}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    long[f"{path.relative_to(REPO)}:{node.lineno} {node.name}"] = length
    assert not long, long


def test_every_stage_is_a_rule_and_a_subcommand():
    from msbench.stages import COMMANDS

    rules = "".join(p.read_text() for p in (REPO / "workflow" / "rules").glob("*.smk"))
    # by hand only: they print (and write no file the workflow needs); probes-score reads a
    # model's answers, which the workflow does not make
    described = {"describe", "summary", "score", "probes-score"}
    for command in set(COMMANDS) - described:
        assert f"rule {command}:" in rules or f"checkpoint {command}:" in rules, command
        assert f"msbench {command} " in rules, command
    assert Path(REPO / "src/msbench/stages").is_dir()
