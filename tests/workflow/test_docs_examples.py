"""The documentation's examples marked `<!-- example: runs on the demo -->` run, as written, on
the demo's results: the docs cannot drift from the program."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import REPO, SHARED_DATA, require_shared

pytestmark = pytest.mark.slow

MARK = "<!-- example: runs on the demo -->"


def examples() -> list[tuple[str, str]]:
    """(page, command) for every line of every marked bash block under docs/."""
    found = []
    for page in sorted((REPO / "docs").rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for block in re.findall(re.escape(MARK) + r"\s*```bash\n(.*?)```", text, flags=re.S):
            found += [(page.name, command) for command in commands(block)]
    return found


def commands(block: str) -> list[str]:
    r"""A bash block's commands: one per line, a line ending in ``\`` or ``&&`` joined with the
    next (a command that needs the one before it runs as one).

    >>> commands("a &&\n  b\nc \\\n  d\n\ne")
    ['a && b', 'c d', 'e']
    """
    found, pending = [], ""
    for line in block.splitlines():
        if not line.strip():
            continue
        pending = f"{pending} {line.strip()}" if pending else line
        if pending.endswith("&&"):
            continue
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip()
            continue
        found.append(pending)
        pending = ""
    return found + ([pending] if pending else [])


def test_the_docs_mark_examples():
    assert len(examples()) >= 12
    pages = {page for page, _ in examples()}
    assert {"own-corpora.md", "score-a-system.md", "probes.md", "getting-started.md",
            "rebuild-ms-bench.md"} <= pages  # fmt: skip


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def docs_work(demo_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One private copy of the demo run for every example (they run in order, as a reader
    would, and may write there)."""
    from tests.helpers.shared_runs import private_copy

    return private_copy(demo_run, tmp_path_factory.mktemp("docs") / "demo")


@pytest.mark.parametrize("page, command", examples())
def test_each_marked_example_runs_on_the_demo(page: str, command: str, docs_work: Path):
    if "--release metadata.jsonl" in command:  # the release's file, where the reader put it
        shutil.copyfile(require_shared(SHARED_DATA / "msbench-release" / "metadata.jsonl"),
                        docs_work / "metadata.jsonl")  # fmt: skip
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", command], cwd=docs_work, env=env,
                          capture_output=True, text=True, check=False, timeout=600)  # fmt: skip
    assert done.returncode == 0, f"{page}: {command}\n{done.stderr[-2000:]}"
