"""`msbench export` on the demo run, each format read back by the library that reads it."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile

pytestmark = pytest.mark.slow


def benchmark_rows(run: Path) -> list[dict[str, str]]:
    with (run / "results/manifests/benchmark.csv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_lhotse_validates_loads_and_plays_the_units_samples(demo_run: Path):
    from lhotse import CutSet, RecordingSet, SupervisionSet
    from lhotse.qa import validate_recordings_and_supervisions

    folder = demo_run / "results/export/lhotse"
    recordings = RecordingSet.from_file(folder / "recordings.jsonl.gz")
    supervisions = SupervisionSet.from_file(folder / "supervisions.jsonl.gz")
    validate_recordings_and_supervisions(recordings, supervisions)
    assert {r.id for r in recordings} == {r["recording_id"] for r in benchmark_rows(demo_run)}
    first = next(iter(supervisions))
    assert first.custom is not None and {"profile", "r_ov", "overlap_ratio"} <= set(first.custom)
    cuts = CutSet.from_file(folder / "cuts.jsonl.gz")
    units = list(csv.DictReader((demo_run / "results/units/units.csv").open(encoding="utf-8")))
    assert sorted(c.id for c in cuts) == sorted(u["unit_id"] for u in units)
    for cut in cuts:
        expected, _ = soundfile.read(
            demo_run / "results/units/audio" / f"{cut.id}.flac", dtype="float32"
        )
        assert np.array_equal(cut.load_audio()[0], expected), cut.id
        assert all(0 <= s.start < cut.duration for s in cut.supervisions)


def test_the_activity_read_back_by_msbenchs_lhotse_adapter_gives_the_benchmarks_axes(
    demo_run: Path, tmp_path: Path
):
    """Speakers, overlap ratio and the turn-interval q25, exactly as the benchmark states them."""
    rows = benchmark_rows(demo_run)
    uem = tmp_path / "scored.uem"
    lines = []
    for row in rows:
        spans = (
            json.loads(row["scored_spans"])
            if row["scored_spans"]
            else [[0.0, float(row["duration_seconds"])]]
        )
        lines += [f"{row['recording_id']} 1 {a} {b}\n" for a, b in spans]
    uem.write_text("".join(lines))
    activity = demo_run / "results/export/lhotse/activity.jsonl.gz"
    done = subprocess.run(
        [sys.executable, "-m", "msbench.cli", "describe", "--format", "lhotse", "--uem", str(uem),
         "--annotations", str(activity)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    described = {d["session_id"]: d for d in map(json.loads, done.stdout.splitlines())}
    for row in rows:
        found = described[row["recording_id"]]
        assert found["num_speakers"] == int(row["num_speakers"]), row["recording_id"]
        assert found["overlap_ratio"] == float(row["overlap_ratio"]), row["recording_id"]
        q25 = float(row["speaker_switch_q25"]) if row["speaker_switch_q25"] else None
        assert found["speaker_switch_q25"] == q25, row["recording_id"]


def test_lhotses_kaldi_importer_reads_the_data_directory_back(demo_run: Path):
    from lhotse.kaldi import load_kaldi_data_dir

    folder = demo_run / "results/export/kaldi"
    recordings, supervisions, _ = load_kaldi_data_dir(folder, sampling_rate=16000)
    assert supervisions is not None
    utterances = list(
        csv.DictReader((demo_run / "results/manifests/utterances.csv").open(encoding="utf-8"))
    )
    kept = {r["recording_id"] for r in benchmark_rows(demo_run)}
    expected = sorted(
        (u["recording_id"], u["speaker"], float(u["start_time"]), float(u["end_time"]), " ".join(u["words"].split()))
        for u in utterances if u["recording_id"] in kept
    )  # fmt: skip
    found = sorted(
        (s.recording_id, s.speaker, s.start, round(s.end, 6), s.text or "") for s in supervisions
    )
    assert found == expected
    assert {r.id for r in recordings} == kept
    assert (folder / "spk2utt").read_text().count("\n") == len({e[1] for e in expected})


def test_meeteval_scores_the_seglst_references_as_msbench_scores_the_baseline(demo_run: Path):
    """meeteval's own cpWER of the baseline's outputs against the exported references equals
    msbench's error counts, unit by unit (both sides normalised with the run's tokenizer,
    mixed-v1, as msbench scores them)."""
    import meeteval

    from msbench.scoring.tokenizer import tokenize

    def normalised(path: Path) -> meeteval.io.SegLST:
        return meeteval.io.SegLST.load(path).map(
            lambda s: {**s, "words": " ".join(tokenize(s["words"], "mixed-v1"))}
        )

    references = normalised(demo_run / "results/export/seglst/references.seglst.json")
    outputs = sorted((demo_run / "results/systems/baseline").glob("*__*.json"))
    hypotheses = meeteval.io.SegLST.merge(*[normalised(p) for p in outputs])
    per_unit = meeteval.wer.cpwer(references, hypotheses)
    with (demo_run / "results/evaluation/baseline/units.csv").open(encoding="utf-8") as f:
        scored = [u for u in csv.DictReader(f) if u["status"] != "excluded"]
    assert scored
    for unit in scored:
        found = per_unit[unit["unit_id"]]
        assert (found.errors, found.length) == (int(unit["cp_errors"]), int(unit["cp_length"]))


def test_datasets_loads_the_benchmark_and_its_audio_is_the_units(demo_run: Path):
    from datasets import load_dataset

    folder = demo_run / "results/export/hf/benchmark"
    rows = load_dataset(str(folder), split="test")
    units = list(csv.DictReader((demo_run / "results/units/units.csv").open(encoding="utf-8")))
    assert sorted(rows["unit_id"]) == sorted(u["unit_id"] for u in units)
    for row in rows:
        expected, rate = soundfile.read(demo_run / "results/units/audio" / f"{row['unit_id']}.flac")
        assert row["audio"]["sampling_rate"] == rate == 16000
        assert np.array_equal(np.asarray(row["audio"]["array"]), expected), row["unit_id"]
        assert json.loads(row["conditions"])["profile"].count("-") == 4
    card = (folder / "README.md").read_text()
    assert card.startswith("---\nlicense: other") and "task_categories" in card
    assert "- ami: CC BY 4.0" in card and "![coverage](coverage.png)" in card


def test_hears_build_input_on_the_exported_probes_gives_msbenchs_runner_file(
    demo_run: Path, tmp_path: Path
):
    """HEAR's own steps (load_dataset pointed at the folder, not the Hub) give every field of
    hear_input.jsonl, and the audio it writes is the item's."""
    from datasets import load_dataset

    from msbench.textio import read_jsonl
    from tests.helpers.hear_rules import build_input_rows

    rows = build_input_rows(load_dataset(str(demo_run / "results/export/hf/probes"), split="test"),
                            str(tmp_path))  # fmt: skip
    expected = list(read_jsonl(demo_run / "results/probes/hear_input.jsonl"))
    assert len(rows) == len(expected) > 0
    for row, mine in zip(rows, expected, strict=True):
        assert {k: v for k, v in row.items() if k != "audio_path"} == {
            k: v for k, v in mine.items() if k != "audio_path"
        }
        ours, _ = soundfile.read(demo_run / "results/probes" / mine["audio_path"])
        written, _ = soundfile.read(row["audio_path"])
        assert np.array_equal(ours, written), row["id"]
