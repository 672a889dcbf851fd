"""Workflow runs made once per test run and shared by every test that reads them.

A run lives in a folder keyed by the checksums of its inputs (the workflow, the config, the demo
corpus, the package's source and what the run adds), under the test run's base temporary folder
(shared by pytest-xdist's workers): the first worker that needs it makes it under a file lock,
the others wait for it and read it. A test that changes a run (runs Snakemake in it, edits its
config) works on :func:`private_copy`, so the shared run stays as made; Snakemake then reruns
only what the change touches.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock

from tests.helpers.paths import REPO

#: What a demo run reads (src/ holds the package the rules run, through the copied tree).
INPUTS = ("Snakefile", "workflow", "config", "resources", "slurm", "scripts", "src/msbench")


def inputs_key(extra: str = "") -> str:
    """A checksum of every file a run reads, and of ``extra`` (what the run itself adds)."""
    digest = hashlib.sha256(extra.encode("utf-8"))
    for name in INPUTS:
        root = REPO / name
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            if "__pycache__" in path.parts or path.suffix in (".nbc", ".nbi"):
                continue
            digest.update(str(path.relative_to(REPO)).encode("utf-8"))
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def shared_root(factory: pytest.TempPathFactory) -> Path:
    """The folder every xdist worker of this test run sees (the base temp itself without xdist)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def shared_run(
    factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None], extra: str = ""
) -> Path:
    """The run ``name``, made by ``build(folder)`` once per test run (under a file lock)."""
    folder = shared_root(factory) / f"run-{name}-{inputs_key(name + extra)}"
    with FileLock(f"{folder}.lock"):
        done = folder.parent / f"{folder.name}.complete"
        if not done.exists():
            if folder.exists():
                shutil.rmtree(folder)
            build(folder)
            done.write_text("", encoding="utf-8")
    return folder


def private_copy(shared: Path, target: Path) -> Path:
    """A copy of a shared run that a test may change: files with their times (Snakemake reads
    them to decide what to rerun), links as links; Snakemake's lock folder left behind."""
    shutil.copytree(
        shared, target, symlinks=True, ignore=shutil.ignore_patterns("locks", "__pycache__")
    )
    return target
