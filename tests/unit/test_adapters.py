"""Each adapter on files that mirror the real corpora, with hand-checked records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msbench.errors import InputError
from msbench.ingest.adapters import detect_format, read_annotation_file
from msbench.io.lhotse_manifest import read_lhotse
from msbench.io.rttm import read_rttm
from msbench.io.stm import read_stm
from msbench.io.textgrid import is_silence, read_textgrid
from msbench.io.uem import read_uem
from tests.helpers.fixtures import (
    AISHELL4_TEXTGRID,
    CHIME6_SESSION,
    DIPCO_SESSION,
    SHORT_TEXTGRID,
    rttm_line,
)


def spans(session) -> list[tuple[str, float, float]]:
    return [(s.speaker, s.start_time, s.end_time) for s in session.segments]


def test_rttm_sessions_comments_and_line_numbers(tmp_path: Path):
    path = tmp_path / "x.rttm"
    path.write_text(
        ";; comment\n"
        + rttm_line("a", 0.5, 1.0, "S1")
        + "SPKR-INFO a 1 <NA> <NA> <NA> unknown S1 <NA> <NA>\n"
        + rttm_line("b", 2.0, 0.0, "S2")
        + rttm_line("a", 1.0, 2.0, "S2")
        + rttm_line("b", 3.0, 1.0, "<NA>"),
        encoding="utf-8",
    )
    a, b = read_rttm(path)
    assert spans(a) == [("S1", 0.5, 1.5), ("S2", 1.0, 3.0)]
    assert a.problems == ()
    # the zero-length segment holds no speech: kept (a format with words keeps its words),
    # named in a note, not a problem
    assert spans(b) == [("S2", 2.0, 2.0)] and b.speech_segments == ()
    assert "line 4" in b.zero_length[0] and "zero-length" in b.zero_length[0]
    assert "line 6" in b.problems[0] and "empty speaker label" in b.problems[0]


def test_rttm_negative_duration_names_line(tmp_path: Path):
    path = tmp_path / "neg.rttm"
    path.write_text(rttm_line("a", 5.0, -1.0, "S1"), encoding="utf-8")
    (session,) = read_rttm(path)
    assert "neg.rttm:line 1" in session.problems[0] and "negative-length" in session.problems[0]


def test_rttm_truncated_line_rejects_only_its_session(tmp_path: Path):
    path = tmp_path / "bad.rttm"
    path.write_text(
        rttm_line("b", 0, 1, "X") + "SPEAKER a 1 0.0\n" + rttm_line("a", 2, 1, "Y"),
        encoding="utf-8",
    )
    b, a = read_rttm(path)
    assert b.problems == () and len(b.segments) == 1
    assert "bad.rttm:line 2: RTTM line has 4 fields" in a.problems[0]


def test_uem_and_stm(tmp_path: Path):
    (tmp_path / "x.uem").write_text("a 1 0.000 30.000\n", encoding="utf-8")
    assert read_uem(tmp_path / "x.uem").spans == {"a": ((0.0, 30.0),)}
    (tmp_path / "x.stm").write_text(
        "a 1 Diane 6.68 7.16 <O,F0,F> Hello?\na 1 Sheila 7.634 8.155 Hello?\n", encoding="utf-8"
    )
    (session,) = read_stm(tmp_path / "x.stm")
    assert [(s.speaker, s.words) for s in session.segments] == [
        ("Diane", "Hello?"),
        ("Sheila", "Hello?"),
    ]


@pytest.mark.parametrize(
    "encoding, bom",
    [
        ("utf-8", b""),
        ("utf-8", b"\xef\xbb\xbf"),
        ("utf-16-le", b"\xff\xfe"),
        ("utf-16-be", b"\xfe\xff"),
        ("utf-16-le", b""),
    ],
)
def test_aishell4_textgrid_in_every_encoding(tmp_path: Path, encoding: str, bom: bytes):
    path = tmp_path / "M_R003S01C01.TextGrid"
    path.write_bytes(bom + AISHELL4_TEXTGRID.encode(encoding))
    (session,) = read_textgrid(path)
    assert session.session_id == "M_R003S01C01"
    assert session.duration == 12.5
    # tag-only and empty intervals are silence; both "005" tiers are one speaker
    assert spans(session) == [("005", 1.2, 4.0), ("006", 3.5, 6.0), ("005", 8.0, 10.0)]
    assert session.segments[0].words == "我们 今天 讨论 <%> 一下"
    assert {s.speaker for s in session.segments} == {"005", "006"}


def test_short_format_textgrid(tmp_path: Path):
    path = tmp_path / "short.TextGrid"
    path.write_text(SHORT_TEXTGRID, encoding="utf-8")
    (session,) = read_textgrid(path)
    assert spans(session) == [("SPK1", 0.0, 1.0), ("SPK2", 1.5, 2.5)]


def test_textgrid_zero_length_interval_is_dropped_with_a_note(tmp_path: Path):
    path = tmp_path / "z.TextGrid"
    path.write_text(AISHELL4_TEXTGRID.replace("xmin = 3.5", "xmin = 6.0"), encoding="utf-8")
    (session,) = read_textgrid(path)
    assert session.problems == ()
    assert "tier 2 '006' interval 2" in session.zero_length[0]
    assert "zero-length" in session.zero_length[0]


def test_silence_tags():
    assert all(map(is_silence, ["", "  ", "<%>", "<sil>", "[noise]", "<sil> <%>", "<$>"]))
    assert not any(map(is_silence, ["好的", "hello <%>", "[laughs] hi"]))


def test_unknown_encoding_names_line_and_fix(tmp_path: Path):
    path = tmp_path / "gbk.TextGrid"
    path.write_bytes(AISHELL4_TEXTGRID.encode("gbk"))
    with pytest.raises(InputError, match=r"gbk.TextGrid:line 22: cannot decode byte .* encoding"):
        read_textgrid(path)
    (session,) = read_textgrid(path, encoding="gbk")
    assert session.segments[0].words.startswith("我们")


def test_chime6_session_json(tmp_path: Path):
    path = tmp_path / "S02.json"
    path.write_text(json.dumps(CHIME6_SESSION), encoding="utf-8")
    (session,) = read_annotation_file(path)
    assert detect_format(path) == "chime"
    assert spans(session) == [("P05", 1.5, 4.0), ("P06", 3.0, 5.25), ("P05", 60.0, 62.0)]
    assert session.segments[1].words == "[laughs] hi"


def test_dipco_per_device_times_use_close_talk(tmp_path: Path):
    path = tmp_path / "S01.json"
    path.write_text(json.dumps(DIPCO_SESSION), encoding="utf-8")
    (session,) = read_annotation_file(path, "chime")
    assert spans(session) == [("P01", 1.0, 2.0), ("P02", 2.5, 3.0)]


def test_seglst(tmp_path: Path):
    path = tmp_path / "ref.json"
    path.write_text(
        json.dumps(
            [
                {
                    "session_id": "m1",
                    "speaker": "A",
                    "start_time": 0.0,
                    "end_time": 1.0,
                    "words": "a",
                },
                {
                    "session_id": "m2",
                    "speaker": "B",
                    "start_time": 0.5,
                    "end_time": 2.0,
                    "words": "b",
                },
                {
                    "session_id": "m1",
                    "speaker": "",
                    "start_time": 3.0,
                    "end_time": 4.0,
                    "words": "c",
                },
            ]
        ),
        encoding="utf-8",
    )
    m1, m2 = read_annotation_file(path)
    assert detect_format(path) == "seglst"
    assert spans(m1) == [("A", 0.0, 1.0)] and "segment 2" in m1.problems[0]
    assert spans(m2) == [("B", 0.5, 2.0)]


def test_seglst_written_by_meeteval_reads_back(tmp_path: Path):
    from meeteval.io import SegLST

    path = tmp_path / "meeteval.json"
    SegLST(
        [{"session_id": "m", "speaker": "A", "start_time": 1.0, "end_time": 2.0, "words": "x"}]
    ).dump(path)
    (session,) = read_annotation_file(path, "seglst")
    assert spans(session) == [("A", 1.0, 2.0)]


def test_lhotse_manifests_written_by_lhotse(tmp_path: Path):
    from lhotse import Recording, RecordingSet, SupervisionSegment, SupervisionSet
    from lhotse.audio import AudioSource

    recordings = RecordingSet.from_recordings(
        [
            Recording(
                id="R1",
                sources=[AudioSource(type="file", channels=[0], source="/data/R1.wav")],
                sampling_rate=16000,
                num_samples=160000,
                duration=10.0,
            )
        ]
    )
    supervisions = SupervisionSet.from_segments(
        [
            SupervisionSegment(
                id="s1", recording_id="R1", start=0.5, duration=2.0, speaker="A", text="x"
            ),
            SupervisionSegment(
                id="s2", recording_id="R1", start=2.0, duration=1.0, speaker="B", text="y"
            ),
        ]
    )
    recordings.to_file(tmp_path / "recordings.jsonl.gz")
    supervisions.to_file(tmp_path / "supervisions.jsonl.gz")
    (session,) = read_lhotse(
        tmp_path / "supervisions.jsonl.gz", recordings=tmp_path / "recordings.jsonl.gz"
    )
    assert session.session_id == "R1"
    assert session.duration == 10.0
    assert session.audio_path == "/data/R1.wav"
    assert spans(session) == [("A", 0.5, 2.5), ("B", 2.0, 3.0)]
    assert detect_format(tmp_path / "supervisions.jsonl.gz") == "lhotse"


EQUAL_STARTS = [("Zed", 1.0, 2.0, "z words"), ("Amy", 1.0, 1.5, "a words"), ("Bo", 0.5, 3.0, "b")]


@pytest.mark.parametrize("fmt", ["rttm", "stm", "seglst", "chime", "notsofar"])
def test_equal_start_times_keep_the_files_order(tmp_path: Path, fmt: str):
    """A stable sort on the start time alone: Zed (first in the file) stays before Amy."""
    rows = [
        {"session_id": "s", "speaker": spk, "speaker_id": spk, "start_time": a, "end_time": b,
         "words": w, "text": w}
        for spk, a, b, w in EQUAL_STARTS
    ]  # fmt: skip
    name = {"notsofar": "MTG_1/gt_transcription.json", "chime": "s.json", "seglst": "s.json"}
    path = tmp_path / name.get(fmt, f"s.{fmt}")
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "rttm":
        path.write_text("".join(rttm_line("s", a, b - a, spk) for spk, a, b, _ in EQUAL_STARTS))
    elif fmt == "stm":
        path.write_text("".join(f"s 1 {spk} {a} {b} {w}\n" for spk, a, b, w in EQUAL_STARTS))
    else:
        path.write_text(json.dumps(rows))
    (session,) = read_annotation_file(path, fmt)
    assert [s.speaker for s in session.segments] == ["Bo", "Zed", "Amy"]
