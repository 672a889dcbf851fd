"""The demo workflow run shared by the workflow tests (one run per session: CI time)."""

from __future__ import annotations

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
    with (work / DEMO_SHEET).open("a", encoding="utf-8") as sheet:
        sheet.write(
            "broken\trttm\tresources/broken/*.rttm\tresources/broken/{session}.flac"
            "\t\t\tEnglish\tMeeting\tnone\t0\n"
        )
    snakemake(work, "--cores", "2")
    return work
