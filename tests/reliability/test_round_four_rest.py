"""Round four's remaining cases (issue 48), each written from its description: a hypothesis that
reaches far past the reference by its end alone, a recordings.jsonl cut mid-line read by the
batch planner, a results path that is a file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from msbench.errors import InputError
from msbench.records import Segment
from msbench.scoring.pipeline import score_pair
from tests.helpers.paths import REPO


def test_a_segment_reaching_far_by_its_end_is_noted():
    """One segment from 0 to 36,000 s (DER 2375) passed without a word: its start is not far."""
    ref = [Segment("s", 0.0, 30.0, "A", "hello there")]
    hyp = [Segment("s", 0.0, 36_000.0, "A", "hello there")]
    notes = score_pair(ref, hyp)["notes"]
    assert any(
        "past the reference's last end (30.000 s), the farthest to 36000.000 s" in n for n in notes
    )
    near = score_pair(ref, [Segment("s", 0.0, 31.0, "A", "hello there")])["notes"]
    assert not any("past the reference's last end" in n for n in near)


def test_a_cut_recordings_file_names_its_line_in_the_batch_planner(tmp_path: Path):
    from msbench.features.batches import count_batches

    ingested = tmp_path / "recordings.jsonl"
    ingested.write_text('{"recording": {"audio_path": "a.flac", "duration_seconds": 3.0}}\n{"recor')
    with pytest.raises(InputError, match=r"recordings.jsonl:line 2: not an ingested recording"):
        count_batches(ingested, {"batch_hours": 2.0})


@pytest.mark.slow
def test_a_results_path_that_is_a_file_is_one_line(tmp_path: Path):
    for name in ("Snakefile", "workflow", "config", "resources"):
        source = REPO / name
        (tmp_path / name).symlink_to(source, target_is_directory=source.is_dir())
    (tmp_path / "results").write_text("not a folder")
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--configfile", "resources/demo/config.yaml",
         "--replace-workflow-config"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode != 0
    assert "results is a file, and the workflow writes its results into a folder" in said
    assert "Traceback" not in said and len(said.splitlines()) <= 6


def test_a_damaged_transcript_gz_rejects_the_sessions_left_without_words(tmp_path: Path):
    """A damaged transcript .gz: its sessions cannot be named; a session left without any word
    was selected and scored against nothing (only the ingest log said so). Now it is rejected,
    and a session whose words another transcript gives is kept."""
    from msbench.ingest.source import ingest_source
    from tests.helpers.fixtures import folder_source, rttm_line, write_tone

    for session in ("a", "b"):
        (tmp_path / f"{session}.rttm").write_text(
            rttm_line(session, 0, 2, "A") + rttm_line(session, 2.5, 2, "B")
        )
        write_tone(tmp_path / f"{session}.wav", 6.0)
    words = tmp_path / "words"
    words.mkdir()
    (words / "a.stm").write_text("a 1 A 0 2 hello there\na 1 B 2.5 4.5 hi\n")
    (words / "b.stm.gz").write_bytes(b"\x1f\x8b\x08\x00broken")
    result = ingest_source(folder_source(tmp_path, transcripts="words/*.stm*"))
    assert [r.recording.session_id for r in result.recordings] == ["a"]
    (rejected,) = result.rejections
    assert rejected.recording_id == "c::b"
    assert (
        "b.stm.gz" in rejected.reason and "cannot be read and names no session" in rejected.reason
    )
