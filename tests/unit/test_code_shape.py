"""The layout rules of the package and its tests: small modules, short functions, thin stages
(README "Development")."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.helpers.paths import REPO

MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 60
SOURCES = sorted((REPO / "src" / "msbench").rglob("*.py")) + sorted((REPO / "tests").rglob("*.py"))
#: A stage reads its files, calls its domain function, writes its files: its body stays short.
MAX_STAGE_BODY_LINES = 30


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


def test_stages_are_thin():
    """Each stage's ``run`` body (after its docstring) is at most 30 lines; no other logic."""
    long, helpers = {}, []
    for path in sorted((REPO / "src" / "msbench" / "stages").glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            if node.name != "run":
                helpers.append(f"{path.name}:{node.name}")
                continue
            body = node.body[1:] if isinstance(node.body[0], ast.Expr) else node.body
            if (n := (body[-1].end_lineno or 0) - body[0].lineno + 1) > MAX_STAGE_BODY_LINES:
                long[path.name] = n
    assert not long, long
    assert helpers == [], helpers


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


#: The floors of the package, bottom up: a module imports from its own floor or a lower one.
FLOORS = (
    "foundations", "cluster", "io", "models", "ingest", "features", "construction", "scoring", "baseline",
    "diagnostics", "comparison", "probes", "review", "audit", "export", "api", "stages", "cli",
    "root",
)  # fmt: skip


def _floor(module: str) -> str:
    """The root ``msbench`` (its ``__init__``: the public names, re-exported from the api floor)
    and ``msbench.__main__`` are the top; other modules at the root are foundations."""
    parts = module.split(".")
    if module in ("msbench", "msbench.__main__"):
        return "root"
    if len(parts) == 1 or (len(parts) == 2 and parts[1] not in FLOORS):
        return "cli" if parts[-1] == "cli" else "foundations"
    return parts[1]


def test_imports_only_go_down_the_floors():
    """No module imports a later floor: the root holds only foundations, none climbs back up."""
    climbs = []
    root = REPO / "src"
    for path in sorted((root / "msbench").rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        mine = FLOORS.index(_floor(module))
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("msbench"):
                assert node.module is not None
                # `from msbench import catalog` imports the module msbench.catalog
                targets = (
                    [f"msbench.{alias.name}" for alias in node.names]
                    if node.module == "msbench"
                    else [node.module]
                )
                for target in targets:
                    if FLOORS.index(_floor(target)) > mine:
                        climbs.append(f"{module} -> {target}")
    assert not climbs, climbs


def test_no_two_modules_import_each_other_even_inside_functions():
    """The floors test sees floors; this one sees modules: no import circle at any depth
    (``features.batches`` and ``features.job_size`` imported each other inside functions)."""
    root = REPO / "src"
    graph: dict[str, set[str]] = {}
    for path in sorted((root / "msbench").rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        graph[module] = {
            node.module
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("msbench.")
        }
    circles = sorted(
        f"{a} <-> {b}"
        for a, targets in graph.items()
        for b in targets
        if a < b and a in graph.get(b, ())
    )
    assert not circles, circles


def test_fmt_skip_stays_rare():
    """Issue 53: under 30 ``# fmt: skip`` in ``src/`` (each one a line the formatter may not
    touch: a table, a kernel's argument list); hand-formatted prose lines are no reason."""
    found = [
        f"{p.relative_to(REPO)}:{n}"
        for p in SOURCES
        if p.is_relative_to(REPO / "src")
        for n, line in enumerate(p.read_text().splitlines(), start=1)
        if line.rstrip().endswith("# fmt: skip")
    ]
    assert len(found) < 30, found
