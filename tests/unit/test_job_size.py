"""Acoustic batches are formed by audio hours, and each job asks for what the memory model gives it."""

from __future__ import annotations

import json
import math
from pathlib import Path

import soundfile

from msbench.features import job_size
from msbench.features.batches import acoustic_job, count_batches, ingested_seconds, plan_batches
from msbench.features.job_size import acoustic_mem_mb, memory_line
from tests.helpers.paths import DEMO


def ingested_file(folder: Path, audio: list[Path]) -> Path:
    """An ingested recordings.jsonl naming real audio files (durations from their headers)."""
    rows = [
        {"recording": {"recording_id": f"r{k}", "audio_path": str(p), "duration_seconds": 1.0}}
        for k, p in enumerate(audio)
    ]
    path = folder / "recordings.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_batches_follow_audio_hours_and_jobs_their_longest_recording(tmp_path: Path):
    audio = sorted((DEMO / "ami" / "audio").glob("*.flac"))[:6] + [
        DEMO / "es2004a" / "audio" / "ES2004a.flac"
    ]
    ingested = ingested_file(tmp_path, audio)
    seconds = [soundfile.info(p).duration for p in audio]
    assert ingested_seconds(ingested) == seconds  # the files' lengths, not the rows' durations
    settings = {"batch_hours": 100 / 3600, "batch_size": None, "decode_workers": 1, "threads": 1}
    plan = plan_batches(seconds, settings["batch_hours"])
    assert count_batches(ingested, settings) == len(plan) >= 3
    assert all(sum(seconds[k] for k in b) <= 100 or len(b) == 1 for b in plan)
    for batch, members in enumerate(plan):
        job = acoustic_job(ingested, batch, settings)
        held = sorted((seconds[k] for k in members), reverse=True)
        peak = (
            job_size.ACOUSTIC_BASE_MB
            + job_size.ACOUSTIC_MB_PER_MINUTE * held[0] / 60
            + job_size.AUDIO_MB_PER_MINUTE * sum(held[1:2]) / 60
        )
        assert job["mem_mb"] == math.ceil(peak * 1.25 / 100) * 100
        assert job["recordings"] == len(members)
        assert job["runtime"] == math.ceil(5 + 2 * sum(held) / 3600 * 300 / 60)


def test_a_retried_job_asks_for_more_and_long_audio_for_more():
    assert acoustic_mem_mb(40, attempt=3) == 3 * acoustic_mem_mb(40)
    assert acoustic_mem_mb(160) > acoustic_mem_mb(5)
    # a 160-minute recording measured 1,993 MB in its own process; SLURM's sum adds about 200
    assert acoustic_mem_mb(160) <= 3000
    # the demo's AMI batch (half-minute recordings): 1,805 MiB by SLURM's accounting (sacct
    # MaxRSS), which killed the 1,800 MB the model asked before its base was raised
    assert acoustic_mem_mb(0.5) >= 1900


def test_the_log_names_the_recording_and_warns_when_the_job_is_too_small():
    from types import SimpleNamespace

    recording = SimpleNamespace(
        recording_id="es2004a::ES2004a",
        audio_path=str(DEMO / "es2004a" / "audio" / "ES2004a.flac"),
        duration_seconds=60.0,
    )
    line = memory_line(recording, 4000)
    assert "es2004a::ES2004a: 1.0 min of audio" in line and "of the job's 4000 MB" in line
    assert "WARNING" not in line
    assert "WARNING: more than the job's 500 MB" in memory_line(recording, 500)
