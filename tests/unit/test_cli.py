"""The command line and the Python API agree; errors are one clear line and exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from msbench.features.describe import describe_file
from tests.helpers.fixtures import AISHELL4_TEXTGRID, rttm_line
from tests.helpers.paths import DEMO, SHARED_DATA, require_shared

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core


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
    result = msbench("describe", "--annotations", str(rttm), "--uem", str(uem))
    assert result.returncode == 0, result.stderr
    printed = [json.loads(line) for line in result.stdout.splitlines()]
    assert printed == describe_file(rttm, uem=str(uem))
    by_session = {row["session_id"]: row for row in printed}
    assert by_session["trñ00"]["duration_seconds"] == 30.0
    assert by_session["trn02"]["num_speakers"] == 1


def test_describe_textgrid_uses_xmax_for_duration(tmp_path: Path):
    path = tmp_path / "M_R003S01C01.TextGrid"
    path.write_text(AISHELL4_TEXTGRID, encoding="utf-16")
    (row,) = map(json.loads, msbench("describe", "--annotations", str(path)).stdout.splitlines())
    assert row["duration_seconds"] == 12.5
    assert row["num_speakers"] == 2
    # 005: [1.2,4) + [8,10); 006: [3.5,6) -> speech 1.2..6 and 8..10 = 6.8 s, overlap 0.5 s
    assert row["speech_duration_seconds"] == 6.8
    assert row["overlap_ratio_of_speech"] == round(0.5 / 6.8, 6)
    assert row["overlap_ratio"] == round(0.5 / 12.5, 6)  # of the recording's duration
    # changes: 006 -> 005 at 8.0 after 006 ended at 6.0 (005's own pause is not a change)
    assert row["speaker_switch_q25"] == 2.0


def test_bad_line_is_named_and_its_session_would_be_rejected(tmp_path: Path):
    path = tmp_path / "broken.rttm"
    path.write_text("SPEAKER x 1 oops\n")
    result = msbench("describe", "--annotations", str(path))
    assert result.returncode == 0 and "Traceback" not in result.stderr
    (row,) = map(json.loads, result.stdout.splitlines())
    assert row["rejected"] is True
    assert "broken.rttm:line 1: RTTM line has 4 fields" in row["problems"][0]


def test_unreadable_file_is_one_clear_error(tmp_path: Path):
    path = tmp_path / "broken.rttm"
    path.write_bytes(b"SPEAKER x 1 0 1 <NA> <NA> \xff\xfe\x00A <NA> <NA>\n")
    result = msbench("describe", "--annotations", str(path))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "broken.rttm:line 1: cannot decode byte" in result.stderr


RELEASE = SHARED_DATA / "msbench-release"


def release_row(recording_id: str) -> dict:
    for line in (RELEASE / "metadata.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["recording_id"] == recording_id:
            return row
    raise KeyError(recording_id)


@pytest.mark.parametrize("recording_id", ["aishell4::M_R003S01C01", "dipco_eval_U01_CH1::S06"])
def test_describe_reproduces_the_release_on_its_own_textgrids(recording_id: str, tmp_path: Path):
    """With the published duration as a UEM, speakers, overlap ratio and q25 are the release's."""
    require_shared(RELEASE)
    source, session = recording_id.split("::")
    published = release_row(recording_id)
    grid = tmp_path / f"{session}.TextGrid"
    grid.write_bytes((RELEASE / "textgrids" / f"{source}__{session}.TextGrid").read_bytes())
    uem = tmp_path / "published.uem"
    uem.write_text(f"{session} 1 0 {published['duration_seconds']}\n")
    result = msbench("describe", "--annotations", str(grid), "--uem", str(uem))
    assert result.returncode == 0, result.stderr
    (row,) = map(json.loads, result.stdout.splitlines())
    assert row["num_speakers"] == published["num_speakers"]
    assert row["overlap_ratio"] == pytest.approx(published["overlap_ratio"], abs=1e-6)
    assert row["speaker_switch_q25"] == pytest.approx(published["speaker_switch_q25"], abs=1e-6)
    # the speech-normalised ratio is the other definition, and it does not match
    assert abs(row["overlap_ratio_of_speech"] - published["overlap_ratio"]) > 1e-3


def test_describe_takes_folders_and_prints_a_summary(tmp_path: Path):
    (tmp_path / "a.rttm").write_text(rttm_line("a", 0, 1, "X") + rttm_line("a", 1.5, 1, "Y"))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.rttm").write_text(rttm_line("b", 0, 1, "X"))
    lines = msbench("describe", "--annotations", str(tmp_path)).stdout.splitlines()
    assert [json.loads(line)["session_id"] for line in lines] == ["a", "b"]
    table = msbench("describe", "--annotations", str(tmp_path), "--summary").stdout
    assert " | a | " in table and " | b | " in table and "2 sessions" in table


def test_describe_says_when_a_file_parses_to_nothing(tmp_path: Path):
    stm = tmp_path / "x.stm"
    stm.write_text("m 1 A 0.0 1.0 hello\n")
    result = msbench("describe", "--annotations", str(stm), "--format", "rttm")
    assert result.returncode == 2
    assert "parsed as 'rttm' it holds no speech segment" in result.stderr
    empty = tmp_path / "empty"
    empty.mkdir()
    assert (
        "is a folder with no annotation file"
        in msbench("describe", "--annotations", str(empty)).stderr
    )


def test_describe_notes_a_zero_length_segment_as_the_workflow_does(tmp_path: Path):
    path = tmp_path / "z.rttm"
    path.write_text(
        rttm_line("z", 0, 1, "A") + rttm_line("z", 1, 0, "B") + rttm_line("z", 2, 1, "B")
    )
    (row,) = map(json.loads, msbench("describe", "--annotations", str(path)).stdout.splitlines())
    assert row["num_segments"] == 2 and row["rejected"] is False
    assert "zero-length" in row["notes"][0]
