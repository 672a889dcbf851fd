"""Model features on awkward audio: short, silent, clipped, resampled, damaged; weights handling."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
import soundfile

from msbench.catalog import BATCH_ACOUSTIC, BATCH_REJECTED
from msbench.config import default_config
from msbench.errors import ModelUnavailableError
from msbench.features.acoustic import AcousticExtractor
from msbench.features.similarity import clean_segments
from msbench.ingest.sheet import SourceSpec
from msbench.ingest.source import ingest_source
from msbench.models.weights import CAMPPLUS, NISQA, find_local, resolve_weights
from msbench.records import Segment
from msbench.stages import acoustic
from msbench.tables import read_rows
from tests.helpers.fixtures import rttm_line
from tests.helpers.paths import SHARED_DATA, SHARED_MODELS, require_shared

pytestmark = pytest.mark.models


def settings() -> dict:
    config = default_config()
    config["models"]["search_dirs"] = [str(require_shared(SHARED_MODELS))]
    config["models"]["offline"] = True
    return config


def two_speakers(tmp_path: Path, name: str, audio: np.ndarray, rate: int = 16000) -> Path:
    soundfile.write(tmp_path / f"{name}.wav", audio, rate, subtype="FLOAT")
    seconds = audio.shape[0] / rate
    half = seconds / 2
    with (tmp_path / "all.rttm").open("a") as rttm:
        rttm.write(
            rttm_line(name, 0.0, half - 0.2, "A")
            + rttm_line(name, half, seconds - half - 0.01, "B")
        )
    return tmp_path / f"{name}.wav"


def speech(seconds: float, rate: int = 16000) -> np.ndarray:
    files = sorted(
        (require_shared(SHARED_DATA) / "librispeech-speakers" / "test-other").glob("*/*.flac")
    )
    a, _ = soundfile.read(files[0], dtype="float32")
    b, _ = soundfile.read(files[15], dtype="float32")
    joined = np.concatenate([a, b, a, b])[: int(seconds * 16000)]
    if rate != 16000:
        import soxr

        joined = soxr.resample(joined, 16000, rate)
    return joined.astype(np.float32)


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def awkward_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    folder = tmp_path_factory.mktemp("awkward")
    two_speakers(folder, "normal", speech(20))
    two_speakers(folder, "short", speech(3))
    two_speakers(folder, "silence", np.zeros(16000 * 12, dtype=np.float32))
    two_speakers(folder, "clipped", np.clip(speech(12) * 20, -1, 1))
    # 0.1 s: NISQA raised on this once ("upper bound and lower bound inconsistent"), sinking the job
    soundfile.write(folder / "tiny.wav", speech(0.1), 16000, subtype="FLOAT")
    with (folder / "all.rttm").open("a") as rttm:
        rttm.write(rttm_line("tiny", 0.0, 0.04, "A") + rttm_line("tiny", 0.05, 0.05, "B"))
    two_speakers(folder, "eightk", speech(12, rate=8000), rate=8000)
    damaged = speech(12)
    damaged[5000:5100] = np.nan
    two_speakers(folder, "nan", damaged)
    spec = SourceSpec(
        name="odd",
        adapter="rttm",
        annotations=str(folder / "all.rttm"),
        audio=str(folder / "{session}.wav"),
    )
    ingested = ingest_source(spec)
    assert ingested.rejections == []
    from msbench.textio import write_jsonl

    write_jsonl(folder / "ingested.jsonl", (r.to_dict() for r in ingested.recordings))
    acoustic.run(
        folder / "ingested.jsonl",
        out=folder / "a.jsonl",
        rejected=folder / "rej.jsonl",
        similarity=folder / "sim.jsonl",
        settings=json.dumps(settings()),
    )
    rows = {
        r["recording_id"].split("::")[1]: r for r in read_rows(BATCH_ACOUSTIC, folder / "a.jsonl")
    }
    rows["_rejected"] = {
        r["recording_id"]: r["reason"] for r in read_rows(BATCH_REJECTED, folder / "rej.jsonl")
    }
    return rows


def test_nan_silence_and_too_short_reject_only_their_recording(awkward_run):
    rejected = awkward_run["_rejected"]
    assert sorted(rejected) == ["odd::nan", "odd::silence", "odd::tiny"]
    assert "non-finite sample" in rejected["odd::nan"]
    assert "digital silence" in rejected["odd::silence"]
    assert "tiny.wav" in rejected["odd::tiny"] and "Traceback" not in rejected["odd::tiny"]
    assert {"normal", "short", "clipped", "eightk"} <= set(awkward_run)


def test_clip_shorter_than_a_window_is_repeated_to_fill_it(awkward_run):
    short = awkward_run["short"]
    # 3 s is repeated to 6 s, then 12 s (as the reference does): windows start at 0, 1 and 2 s
    assert short["dnsmos_windows"] == 3 and short["nisqa_chunks"] == 1
    assert 1 <= short["dnsmos_ovrl"] <= 5
    assert short["speaker_similarity_max"] is None  # no clean piece over 2 s


def test_clipping_is_measured_and_noted(awkward_run):
    assert awkward_run["clipped"]["clipping_fraction"] > 0.01
    assert "clipping" in awkward_run["clipped"]["acoustic_notes"]
    # heavy clipping is an integrity flag: characterized, and ineligible (audio_integrity)
    assert awkward_run["clipped"]["integrity_flags"].startswith("clipping")
    assert awkward_run["normal"]["clipping_fraction"] < 0.001


def test_other_sample_rates_are_resampled(awkward_run):
    eightk, normal = awkward_run["eightk"], awkward_run["normal"]
    assert eightk["source_sample_rate"] == 8000
    assert 1 <= eightk["dnsmos_ovrl"] <= 5 and 1 <= eightk["nisqa_mos"] <= 5
    assert normal["speaker_similarity_max"] < 0.6  # two different LibriSpeech speakers


def test_speaker_with_one_short_segment_is_left_out_of_similarity():
    segments = [
        Segment("s", 0, 5, "A"),
        Segment("s", 5.5, 8, "A"),
        Segment("s", 9, 12, "A"),
        Segment("s", 13, 16, "B"),
        Segment("s", 16.5, 17.5, "C"),
    ]
    crops = clean_segments(segments, default_config()["acoustic"]["similarity"])
    assert len(crops["A"]) == 3 and len(crops["B"]) == 1 and crops["C"] == []
    assert crops["A"][0] == pytest.approx((0.0, 5.0))


def test_weights_from_path_folder_cache_and_clear_error(tmp_path: Path, monkeypatch):
    models = require_shared(SHARED_MODELS)
    file = models / "campplus" / "campplus_cn_en_common.pt"
    assert find_local(CAMPPLUS, {"campplus": {"path": str(file)}}) == file
    assert find_local(CAMPPLUS, {"campplus": {"path": str(file.parent)}}) == file
    assert find_local(NISQA, {"search_dirs": [str(models)]}) == models / "nisqa" / "nisqa.tar"
    cache = tmp_path / "cache"
    (cache / "nisqa").mkdir(parents=True)
    os.symlink(models / "nisqa" / "nisqa.tar", cache / "nisqa" / "nisqa.tar")
    monkeypatch.setenv("MSBENCH_CACHE", str(cache))
    assert find_local(NISQA, {}) == cache / "nisqa" / "nisqa.tar"
    monkeypatch.setenv("MSBENCH_CACHE", str(tmp_path / "empty"))
    with pytest.raises(ModelUnavailableError) as offline:
        resolve_weights(CAMPPLUS, {"offline": True}, lambda target: target)
    assert "campplus_cn_common.bin" in str(offline.value) and str(
        tmp_path / "empty" / "campplus"
    ) in str(offline.value)

    def unreachable(target: Path) -> Path:
        raise ConnectionError("hub unreachable")

    with pytest.raises(
        ModelUnavailableError,
        match="download from the NISQA repository .* failed .*hub unreachable",
    ):
        resolve_weights(NISQA, {}, unreachable)
    with pytest.raises(ModelUnavailableError, match="holds none of"):
        find_local(NISQA, {"nisqa": {"path": str(tmp_path)}})


def test_extractor_stops_with_instructions_when_weights_are_missing(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("MSBENCH_CACHE", str(tmp_path))
    config = default_config()
    config["models"]["offline"] = True
    extractor = AcousticExtractor(config["acoustic"], config["models"])
    with pytest.raises(
        ModelUnavailableError, match=r"Put campplus_cn_common.bin .* into .*campplus/"
    ):
        extractor.embedder  # noqa: B018 - loading is the point
