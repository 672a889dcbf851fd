"""End to end: the real workflow on the embedded demo, in a temporary copy of the repository."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from fixtures import rttm_line
from workflow_helpers import copy_workflow, manifest_bytes, snakemake


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = copy_workflow(tmp_path_factory.mktemp("demo"))
    # a third source whose only recording has no audio: it must be rejected, not sink the run
    broken = work / "resources" / "broken"
    broken.mkdir()
    (broken / "b.rttm").write_text(rttm_line("lost", 0, 2, "A") + rttm_line("lost", 3, 2, "B"))
    with (work / "config" / "datasets.tsv").open("a", encoding="utf-8") as sheet:
        sheet.write("broken\trttm\tresources/broken/*.rttm\tresources/broken/{session}.flac"
                    "\t\t\tEnglish\tMeeting\tnone\t0\n")
    snakemake(work, "--cores", "2")
    return work


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


@pytest.mark.slow
def test_demo_manifests(demo_run: Path):
    manifests = demo_run / "results" / "manifests"
    recordings = read_csv(manifests / "recordings.csv")
    assert len(recordings) == 15
    assert list(recordings[0])[:9] == [
        "recording_id", "source_dataset", "language", "scenario", "recording_device",
        "duration_seconds", "num_speakers", "overlap_ratio", "speaker_switch_q25",
    ]
    by_id = {row["recording_id"]: row for row in recordings}
    assert by_id["ami::trn02"]["eligible"] == "false"
    assert "fewer than 2 speakers" in by_id["ami::trn02"]["ineligible_reasons"]
    assert by_id["two_speaker::sample"]["num_speakers"] == "2"
    assert "ami::trñ00" in by_id
    rejected = read_csv(manifests / "rejected.csv")
    assert [r["recording_id"] for r in rejected] == ["broken::lost"]
    assert "audio file not found" in rejected[0]["reason"]
    summary = json.loads((manifests / "run_summary.json").read_text())
    assert summary["recordings_characterized"] == 15
    assert summary["recordings_rejected"] == 1
    utterances = read_csv(manifests / "utterances.csv")
    assert all(0.0 <= float(u["overlap_exposure"]) <= 1.0 for u in utterances)
    assert any(u["speaker"] == "ami::trñ00::MÉO069" for u in utterances)


@pytest.mark.slow
def test_rerun_does_nothing_and_outputs_are_deterministic(demo_run: Path):
    dry = snakemake(demo_run, "--cores", "1", "--dry-run")
    assert "Nothing to be done" in dry.stdout + dry.stderr
    first = manifest_bytes(demo_run)
    shutil.rmtree(demo_run / "results")
    snakemake(demo_run, "--cores", "2")
    assert manifest_bytes(demo_run) == first
