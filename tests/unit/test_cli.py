"""The command line and the Python API agree; errors are one clear line and exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from msbench.describe import describe_file
from tests.helpers.fixtures import AISHELL4_TEXTGRID
from tests.helpers.paths import DEMO


def msbench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "msbench.cli", *args], capture_output=True, text=True, timeout=300
    )


def test_help_lists_every_stage():
    result = msbench("--help")
    assert result.returncode == 0
    for command in ("describe", "ingest", "interaction", "collect"):
        assert command in result.stdout


def test_describe_cli_equals_api_on_ami_with_uem():
    rttm = DEMO / "ami" / "annotations" / "train.rttm"
    uem = DEMO / "ami" / "annotations" / "train.uem"
    result = msbench("describe", str(rttm), "--uem", str(uem))
    assert result.returncode == 0, result.stderr
    printed = json.loads(result.stdout)
    assert printed == describe_file(rttm, uem=str(uem))
    by_session = {row["session_id"]: row for row in printed}
    assert by_session["trñ00"]["duration_seconds"] == 30.0
    assert by_session["trn02"]["num_speakers"] == 1


def test_describe_textgrid_uses_xmax_for_duration(tmp_path: Path):
    path = tmp_path / "M_R003S01C01.TextGrid"
    path.write_text(AISHELL4_TEXTGRID, encoding="utf-16")
    (row,) = json.loads(msbench("describe", str(path)).stdout)
    assert row["duration_seconds"] == 12.5
    assert row["num_speakers"] == 2
    # 005: [1.2,4) + [8,10); 006: [3.5,6) -> speech 1.2..6 and 8..10 = 6.8 s, overlap 0.5 s
    assert row["speech_duration_seconds"] == 6.8
    assert row["overlap_ratio"] == round(0.5 / 6.8, 6)
    # changes: 006 -> 005 at 8.0 after 006 ended at 6.0 (005's own pause is not a change)
    assert row["speaker_switch_q25"] == 2.0


def test_bad_file_is_one_clear_error(tmp_path: Path):
    path = tmp_path / "broken.rttm"
    path.write_text("SPEAKER x 1 oops\n")
    result = msbench("describe", str(path))
    assert result.returncode == 2
    assert "broken.rttm:line 1: RTTM line has 4 fields" in result.stderr
    assert "Traceback" not in result.stderr
