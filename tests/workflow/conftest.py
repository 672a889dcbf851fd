"""The demo workflow runs shared by the workflow tests: each made once per test run, across
pytest-xdist's workers (tests/helpers/shared_runs.py), in a folder keyed by its inputs.

``clean_run``  the demo as command 1 runs it: the in-repository reference of the deployment,
               cluster and resume tests.
``demo_run``   the demo with three more sources that cannot be used (a recording without audio,
               unreadable files, a sessions list that is a folder): they must be rejected, not
               sink the run; what most workflow tests read.

A test that changes a run works on a private copy (``demo_copy``); xdist groups keep the tests
of one run on one worker (``pytest -n 2 --dist loadgroup``; tests/conftest.py assigns them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.fixtures import rttm_line
from tests.helpers.shared_runs import private_copy, shared_run
from tests.helpers.workflow import DEMO_SHEET, copy_workflow, snakemake


def add_broken_sources(work: Path) -> None:
    """Three more sources in the demo's sheet that no recording of can be used."""
    broken = work / "resources" / "broken"
    broken.mkdir()
    (broken / "b.rttm").write_text(rttm_line("lost", 0, 2, "A") + rttm_line("lost", 3, 2, "B"))
    # a fourth whose files cannot be read (a folder named .rttm, a fake .gz, a symlink loop
    # under **), and a fifth that fails whole (its sessions list is a folder)
    damaged = work / "resources" / "damaged" / "deep"
    (damaged / "folder.rttm").mkdir(parents=True)
    (damaged / "fake.rttm.gz").write_bytes(b"not gzip at all")
    os.symlink("..", damaged / "loop")
    (work / "resources" / "failing").mkdir()
    sheet = work / DEMO_SHEET
    header, *rows = sheet.read_text(encoding="utf-8").splitlines(keepends=True)
    sheet.write_text(
        header.rstrip("\n")
        + "\tsessions\n"
        + "".join(rows)
        + "broken\trttm\tresources/broken/*.rttm\tresources/broken/{session}.flac"
        "\t\t\tEnglish\tMeeting\tnone\t0\t\t\t\n"
        "damaged\trttm\tresources/damaged/**/*.rttm*\tresources/damaged/{session}.flac"
        "\t\t\tEnglish\tMeeting\tnone\t0\t\t\t\n"
        "failing\trttm\tresources/broken/*.rttm\tresources/broken/{session}.flac"
        "\t\t\tEnglish\tMeeting\tnone\t0\t\t\tresources/failing\n",
        encoding="utf-8",
    )


def _clean(folder: Path) -> None:
    copy_workflow(folder)
    snakemake(folder, "--cores", "2")


def _demo(folder: Path) -> None:
    copy_workflow(folder)
    add_broken_sources(folder)
    snakemake(folder, "--cores", "2")


@pytest.fixture(scope="session")
def clean_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_run(tmp_path_factory, "clean", _clean)


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_run(tmp_path_factory, "demo", _demo, extra="broken, damaged, failing")


@pytest.fixture
def demo_copy(demo_run: Path, tmp_path: Path) -> Path:
    """A private copy of the demo run for a test that runs Snakemake in it or edits it."""
    return private_copy(demo_run, tmp_path / "demo")
