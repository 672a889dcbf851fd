"""The demo workflow run shared by the workflow tests (one run per session: CI time)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.fixtures import rttm_line
from tests.helpers.workflow import DEMO_SHEET, copy_workflow, snakemake


@pytest.fixture(scope="session")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = copy_workflow(tmp_path_factory.mktemp("demo"))
    # a third source whose only recording has no audio: it must be rejected, not sink the run
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
    snakemake(work, "--cores", "2")
    return work
