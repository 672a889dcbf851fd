"""Bad input: each case rejects only what it concerns, names the file, the place and a fix,
and keeps the count: recordings in = characterized + rejected, each row with its id."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile

from msbench.errors import InputError
from msbench.features.integrity import integrity_flags
from msbench.ingest.source import ingest_source
from msbench.ingest.source_report import annotation_encodings
from msbench.records import Segment
from tests.helpers.fixtures import (
    AISHELL4_TEXTGRID,
    CHIME6_SESSION,
    folder_source,
    rttm_line,
    write_tone,
)


def two_speakers(session: str) -> str:
    return rttm_line(session, 0, 2, "A") + rttm_line(session, 2.5, 2, "B")


def accounted(result) -> int:
    assert all(r.recording_id for r in result.rejections), "every rejection row names its recording"
    return len(result.recordings) + len(result.rejections)


def test_one_short_rttm_line_rejects_only_its_session(tmp_path: Path):
    lines = "".join(two_speakers(f"s{k}") for k in range(10)) + "SPEAKER s3 1 0.0\n"
    (tmp_path / "all.rttm").write_text(lines)
    for k in range(10):
        write_tone(tmp_path / f"s{k}.wav", 6.0)
    result = ingest_source(folder_source(tmp_path))
    assert len(result.recordings) == 9 and accounted(result) == 10
    (bad,) = result.rejections
    assert bad.recording_id == "c::s3" and "all.rttm:line 21: RTTM line has 4 fields" in bad.reason


def test_a_zero_byte_rttm_and_audio_without_annotation_are_named(tmp_path: Path):
    (tmp_path / "a.rttm").write_text(two_speakers("a"))
    (tmp_path / "empty.rttm").write_bytes(b"")
    for session in ("a", "lonely"):
        write_tone(tmp_path / f"{session}.wav", 6.0)
    result = ingest_source(folder_source(tmp_path))
    reasons = {r.recording_id: r.reason for r in result.rejections}
    # the lonely audio's session may be in the file that could not be read: its row names both,
    # and no made-up row is counted for the file (2 sessions, 2 rows)
    assert set(reasons) == {"c::lonely"}
    assert "audio without an annotation" in reasons["c::lonely"]
    assert (
        "lonely.wav" in reasons["c::lonely"]
        and "empty.rttm: holds no session" in reasons["c::lonely"]
    )
    assert accounted(result) == 2
    # without audio left to carry it, the file is a row of its own, named after it
    (tmp_path / "lonely.wav").unlink()
    reasons = {r.recording_id: r.reason for r in ingest_source(folder_source(tmp_path)).rejections}
    assert "empty.rttm: holds no session" in reasons["c::empty"]


def test_a_truncated_textgrid_is_its_own_rejection(tmp_path: Path):
    (tmp_path / "M_good.TextGrid").write_text(AISHELL4_TEXTGRID)
    (tmp_path / "M_cut.TextGrid").write_text(AISHELL4_TEXTGRID[: len(AISHELL4_TEXTGRID) // 2])
    for session in ("M_good", "M_cut"):
        write_tone(tmp_path / f"{session}.wav", 13.0)
    result = ingest_source(folder_source(tmp_path, adapter="textgrid", annotations="*.TextGrid"))
    (bad,) = result.rejections
    assert bad.recording_id == "c::M_cut" and "not a readable Praat TextGrid" in bad.reason
    assert "re-save it in Praat" in bad.reason and "Traceback" not in bad.reason
    assert [r.recording.session_id for r in result.recordings] == ["M_good"]


def test_a_chime_list_holding_a_string_rejects_its_session_only(tmp_path: Path):
    (tmp_path / "S02.json").write_text(json.dumps([*CHIME6_SESSION, "oops"]))
    (tmp_path / "S03.json").write_text(
        json.dumps([{**e, "session_id": "S03"} for e in CHIME6_SESSION])
    )
    for session in ("S02", "S03"):
        write_tone(tmp_path / f"{session}.wav", 65.0)
    result = ingest_source(folder_source(tmp_path, adapter="chime", annotations="*.json"))
    (bad,) = result.rejections
    assert (
        bad.recording_id == "c::S02"
        and "S02.json:entry 3: a str, expected an utterance object" in bad.reason
    )
    assert accounted(result) == 2


def test_an_stm_line_with_three_fields_rejects_its_session(tmp_path: Path):
    (tmp_path / "ref.stm").write_text(
        "m1 1 A 0.0 2.0 hello\nm1 1 B 2.5 4.0 hi\nm2 1 A\nm2 1 A 0 1 x\nm2 1 B 1 2 y\n"
    )
    for session in ("m1", "m2"):
        write_tone(tmp_path / f"{session}.wav", 5.0)
    result = ingest_source(folder_source(tmp_path, adapter="stm", annotations="*.stm"))
    (bad,) = result.rejections
    assert bad.recording_id == "c::m2" and "ref.stm:line 3: STM line has 3 fields" in bad.reason
    assert accounted(result) == 2


@pytest.mark.parametrize("session", ["a::b", "../evil"])
def test_session_ids_with_separators_or_path_parts_are_rejected(tmp_path: Path, session: str):
    (tmp_path / "x.rttm").write_text(two_speakers(session) + two_speakers("fine"))
    write_tone(tmp_path / "fine.wav", 6.0)
    result = ingest_source(folder_source(tmp_path))
    (bad,) = result.rejections
    assert "rename the session" in bad.reason
    assert [r.recording.session_id for r in result.recordings] == ["fine"]


def test_a_transcripts_glob_that_matches_nothing_is_said(tmp_path: Path):
    (tmp_path / "a.rttm").write_text(two_speakers("a"))
    write_tone(tmp_path / "a.wav", 6.0)
    result = ingest_source(folder_source(tmp_path, transcripts="words/*.stm"))
    assert len(result.recordings) == 1
    assert "no transcript file matches" in result.warnings[0]


def test_a_truncated_flac_is_rejected_at_ingest(tmp_path: Path):
    (tmp_path / "a.rttm").write_text(two_speakers("a") + two_speakers("b"))
    rng = np.random.default_rng(0)
    for session in ("a", "b"):
        soundfile.write(tmp_path / f"{session}.flac", 0.1 * rng.standard_normal(16000 * 6), 16000)
    data = (tmp_path / "b.flac").read_bytes()
    (tmp_path / "b.flac").write_bytes(data[: len(data) // 2])
    spec = folder_source(tmp_path, audio="{session}.flac")
    result = ingest_source(spec)
    (bad,) = result.rejections
    assert bad.recording_id == "c::b" and "re-encode or re-download" in bad.reason


def test_utf8_files_stay_utf8_when_the_source_declares_gbk(tmp_path: Path):
    (tmp_path / "M_utf8.TextGrid").write_text(
        AISHELL4_TEXTGRID.replace('name = "006"', 'name = "MÉO069"'), encoding="utf-8"
    )
    (tmp_path / "M_gbk.TextGrid").write_bytes(AISHELL4_TEXTGRID.encode("gbk"))
    for session in ("M_utf8", "M_gbk"):
        write_tone(tmp_path / f"{session}.wav", 13.0)
    spec = folder_source(tmp_path, adapter="textgrid", annotations="*.TextGrid", encoding="gbk")
    result = ingest_source(spec)
    speakers = {r.recording.session_id: {s.speaker for s in r.segments} for r in result.recordings}
    assert speakers["M_utf8"] == {"005", "MÉO069"}
    # which codec each file was read with is recorded (ingest's encodings.json)
    used = {Path(path).name: codec for path, codec in annotation_encodings(spec).items()}
    assert used == {"M_gbk.TextGrid": "gbk", "M_utf8.TextGrid": "utf-8"}
    assert any(
        "我们" in (s.words or "")
        for r in result.recordings
        if r.recording.session_id == "M_gbk"
        for s in r.segments
    )


SPEECH = [Segment("s", 0.5, 3.5, "A")]


@pytest.mark.parametrize(
    ("audio", "message"),
    [
        (np.zeros(16000 * 4, dtype=np.float32), "digital silence"),
        (np.full(16000 * 4, 1e-5, dtype=np.float32), "near-silent audio"),
    ],
)
def test_silence_is_rejected_before_any_model(audio: np.ndarray, message: str):
    with pytest.raises(InputError, match=message):
        integrity_flags(audio, 16000, SPEECH, "x.wav")


def test_dropouts_clipping_and_dc_offset_are_flags_the_pool_respects():
    from msbench.eligibility import ineligibility

    rng = np.random.default_rng(1)
    audio = (0.1 * rng.standard_normal(16000 * 4)).astype(np.float32)
    audio = np.clip(audio + 0.2, -1, 1)  # a DC offset
    audio[::50] = 1.0  # 2 % of samples at full scale
    audio[16000:30000] = 0.0  # 0.875 s of exact zeros inside speech
    flags = integrity_flags(audio, 16000, SPEECH, "x.wav")
    assert [f.split(":")[0].split(" ")[0] for f in flags] == ["dropout", "clipping", "DC"]
    row = {
        "num_speakers": 2,
        "speaker_switch_q25": 0.1,
        "speaker_similarity_max": 0.3,
        "noise_difficulty": 0.5,
        "integrity_flags": "; ".join(flags),
    }
    assert [r.code for r in ineligibility(row, 2, 2.0)] == ["audio_integrity"]


def test_a_random_mix_keeps_every_recording_in_a_row(tmp_path: Path):
    rng = np.random.default_rng(7)
    lines, expected = "", 0
    for k in range(12):
        kind = ["good", "short_line", "no_audio", "zero", "bad_id", "audio_only"][
            int(rng.integers(0, 6))
        ]
        session = f"r{k}" if kind != "bad_id" else f"r{k}::x"
        if kind != "audio_only":
            lines += two_speakers(session)
        if kind == "short_line":
            lines += f"SPEAKER {session} 1\n"
        if kind == "zero":
            lines += rttm_line(session, 5, 0, "C")  # dropped with a note, the session goes on
        if kind not in ("no_audio", "bad_id"):
            write_tone(tmp_path / f"{session}.wav", 6.0)
        expected += 1
    (tmp_path / "mix.rttm").write_text(lines)
    result = ingest_source(folder_source(tmp_path))
    assert accounted(result) == expected


def test_a_bad_lhotse_line_rejects_only_its_recording(tmp_path: Path):
    from lhotse import Recording, RecordingSet
    from lhotse.audio import AudioSource

    recordings = []
    for name in ("R1", "R2"):
        write_tone(tmp_path / f"{name}.wav", 6.0)
        recordings.append(
            Recording(
                id=name,
                sources=[
                    AudioSource(type="file", channels=[0], source=str(tmp_path / f"{name}.wav"))
                ],
                sampling_rate=16000,
                num_samples=96000,
                duration=6.0,
            )
        )
    RecordingSet.from_recordings(recordings).to_file(tmp_path / "recordings.jsonl")
    good = [
        {
            "id": f"{r}-{k}",
            "recording_id": r,
            "start": 2.5 * k,
            "duration": 2.0,
            "channel": 0,
            "speaker": "AB"[k],
        }
        for r in ("R1", "R2")
        for k in range(2)
    ]
    lines = [json.dumps(s) for s in good]
    lines.insert(2, json.dumps({"id": "bad", "recording_id": "R2", "start": "x"}))
    lines.append(
        json.dumps(
            {
                "id": "ghost",
                "recording_id": "R9",
                "start": 0,
                "duration": 1,
                "channel": 0,
                "speaker": "A",
            }
        )
    )
    (tmp_path / "supervisions.jsonl").write_text("\n".join(lines) + "\n")
    spec = folder_source(
        tmp_path, "lhotse", "supervisions.jsonl", None, "l", recordings="recordings.jsonl"
    )
    result = ingest_source(spec)
    reasons = {r.recording_id: r.reason for r in result.rejections}
    assert [r.recording.recording_id for r in result.recordings] == ["l::R1"]
    assert "supervisions.jsonl:line 3: not a lhotse supervision" in reasons["l::R2"]
    assert "recording 'R9' is not in the recordings manifest" in reasons["l::R9"]


def test_an_undecodable_rttm_names_the_sessions_it_held(tmp_path: Path):
    (tmp_path / "latin1.rttm").write_bytes(
        (two_speakers("s1") + two_speakers("s2").replace(" A ", " Jos\xe9 ")).encode("latin-1")
    )
    (tmp_path / "ok.rttm").write_text(two_speakers("s3"))
    for session in ("s1", "s2", "s3"):
        write_tone(tmp_path / f"{session}.wav", 6.0)
    result = ingest_source(folder_source(tmp_path))
    reasons = {r.recording_id: r.reason for r in result.rejections}
    assert sorted(reasons) == ["c::s1", "c::s2"]
    assert all(
        "latin1.rttm:line 3: cannot decode byte 0xe9" in reason for reason in reasons.values()
    )
    assert [r.recording.recording_id for r in result.recordings] == ["c::s3"]


@pytest.mark.parametrize("fixture", ["long", "short"])
def test_a_textgrid_cut_at_any_line_is_rejected_never_read_in_part(tmp_path: Path, fixture: str):
    """praatio reads a truncated TextGrid without complaint: the declared counts catch every cut."""
    from msbench.errors import InputError
    from msbench.io.textgrid import read_textgrid
    from tests.helpers.fixtures import SHORT_TEXTGRID

    text = AISHELL4_TEXTGRID if fixture == "long" else SHORT_TEXTGRID
    whole = tmp_path / "whole.TextGrid"
    whole.write_text(text)
    (full,) = read_textgrid(whole)
    lines = text.splitlines(keepends=True)
    for keep in range(4, len(lines)):
        path = tmp_path / "cut.TextGrid"
        path.write_text("".join(lines[:keep]))
        try:
            (session,) = read_textgrid(path)
        except InputError as error:
            assert "not a readable Praat TextGrid" in str(error)
            continue
        assert session.segments == tuple(s for s in full.segments), keep  # only blank tail lines
