"""Formats users hold: STM references, NOTSOFAR-1 and CHiME JSON field names, aligner TextGrids,
UEM spans at ingest, words into utterances.csv, lhotse sources that are not files."""

from __future__ import annotations

import json
from pathlib import Path

from msbench.features.feature_rows import utterance_rows
from msbench.ingest.adapters import detect_format, read_annotation_file
from msbench.ingest.source import ingest_source
from msbench.io.chime import read_chime
from msbench.io.notsofar import read_notsofar
from msbench.io.stm import read_stm
from msbench.io.textgrid import read_textgrid
from tests.helpers.fixtures import folder_source, rttm_line, write_tone
from tests.helpers.textgrids import long_textgrid

# AISHELL-4 evaluation STM style: <file> <chnl> <speaker> <start> <end> <label> words
AISHELL4_STM = """;; AISHELL-4 style reference
M_R003S01C01 1 M_R003S01C01_005 1.20 4.00 <O,M,> 我们 今天 讨论
M_R003S01C01 1 inter_segment_gap 4.00 5.00 <O,M,>
M_R003S01C01 1 M_R003S01C01_006 3.50 6.00 <O,F,> 好的
M_R003S01C01 1 M_R003S01C01_006 7.00 8.00 <O,F,> ignore_time_segment_in_scoring
"""

# NOTSOFAR-1 gt_transcription.json (field names as the corpus writes them)
NOTSOFAR = [
    {
        "speaker_id": "Peter",
        "start_time": 0.52,
        "end_time": 2.3,
        "text": "hello everyone",
        "word_timing": [],
    },
    {"speaker_id": "Anna", "start_time": "2.30", "end_time": "4.10", "text": "hi"},
]

# CHiME-7/8 DASR style: seconds as numeric strings
CHIME7 = [
    {
        "session_id": "S02",
        "speaker": "P05",
        "start_time": "10.52",
        "end_time": "12.04",
        "words": "yes",
    },
    {"session_id": "S02", "speaker": "P06", "start_time": "11.5", "end_time": "13", "words": "no"},
]

ALIGNER_TEXTGRID = long_textgrid(
    [
        ("anna - words", [(0.0, 1.5, "hello"), (1.5, 3.0, "there")]),
        ("anna - phones", [(0.0, 1.5, "HH AH L OW"), (1.5, 3.0, "DH EH R")]),
    ],
    3.0,
)


def spans(session):
    return [(s.speaker, s.start_time, s.end_time, s.words) for s in session.segments]


def test_stm_reference_skips_excluded_regions(tmp_path: Path):
    path = tmp_path / "ref.stm"
    path.write_text(AISHELL4_STM, encoding="utf-8")
    assert detect_format(path) == "stm"
    (session,) = read_stm(path)
    assert spans(session) == [
        ("M_R003S01C01_005", 1.2, 4.0, "我们 今天 讨论"),
        ("M_R003S01C01_006", 3.5, 6.0, "好的"),
    ]
    assert len(session.notes) == 2 and all("excluded region" in n for n in session.notes)


def test_notsofar_fields_and_meeting_folder_as_session(tmp_path: Path):
    path = tmp_path / "MTG_30860" / "gt_transcription.json"
    path.parent.mkdir()
    path.write_text(json.dumps(NOTSOFAR))
    assert detect_format(path) == "notsofar"
    (session,) = read_annotation_file(path)
    assert session.session_id == "MTG_30860"
    assert (
        spans(session) == [("Anna", 2.3, 4.1, "hi"), ("Peter", 0.52, 2.3, "hello everyone")][::-1]
    )


def test_notsofar_missing_speaker_field_names_it(tmp_path: Path):
    path = tmp_path / "MTG_1" / "gt_transcription.json"
    path.parent.mkdir()
    path.write_text(json.dumps([{"speaker": "x", "start_time": 0, "end_time": 1}]))
    (session,) = read_notsofar(path)
    assert "entry 0: no 'speaker_id' field" in session.problems[0]


def test_chime7_numeric_strings_and_bad_entries(tmp_path: Path):
    path = tmp_path / "S02.json"
    path.write_text(
        json.dumps([*CHIME7, "oops", {"session_id": "S02", "start_time": "1", "end_time": "2"}])
    )
    (session,) = read_chime(path)
    assert spans(session) == [("P05", 10.52, 12.04, "yes"), ("P06", 11.5, 13.0, "no")]
    assert "entry 2: a str, expected an utterance object" in session.problems[0]
    assert "entry 3: no 'speaker' field" in session.problems[1]


def test_chime6_clock_strings_are_exact(tmp_path: Path):
    path = tmp_path / "S03.json"
    entry = {
        "session_id": "S03",
        "speaker": "P01",
        "start_time": "0:01:02.37",
        "end_time": "0:01:04.00",
        "words": "x",
    }
    path.write_text(json.dumps([entry]))
    (session,) = read_chime(path)
    assert session.segments[0].start_time == 62.37  # a float sum gives 62.370000000000005


def test_aligner_textgrid_is_one_speaker_with_a_note(tmp_path: Path):
    path = tmp_path / "utt.TextGrid"
    path.write_text(ALIGNER_TEXTGRID)
    (session,) = read_textgrid(path)
    assert {s.speaker for s in session.segments} == {"anna"}
    assert any("aligner sub-word tier" in n for n in session.notes)


def test_uem_span_crops_annotation_and_sets_duration(tmp_path: Path):
    write_tone(tmp_path / "m.wav", 20.0)
    (tmp_path / "m.rttm").write_text(
        rttm_line("m", 0.5, 2.0, "A") + rttm_line("m", 4.0, 4.0, "B") + rttm_line("m", 15, 2, "A")
    )
    (tmp_path / "m.uem").write_text("m 1 1.0 10.0\n")
    spec = folder_source(tmp_path, uem="*.uem")
    (item,) = ingest_source(spec).recordings
    assert item.recording.duration_seconds == 9.0
    assert [(s.start_time, s.end_time) for s in item.segments] == [(1.0, 2.5), (4.0, 8.0)]
    assert any(
        "1 segment(s) cut at the edges of its spans, 1 segment(s) outside every span dropped" in n
        for n in item.notes
    )


def test_words_reach_the_utterance_rows(tmp_path: Path):
    write_tone(tmp_path / "M_R003S01C01.wav", 10.0)
    (tmp_path / "ref.stm").write_text(AISHELL4_STM, encoding="utf-8")
    spec = folder_source(tmp_path, "stm", "*.stm", name="a4")
    (item,) = ingest_source(spec).recordings
    rows = utterance_rows(item)
    assert [r["words"] for r in rows] == ["我们 今天 讨论", "好的"]
    assert rows[0]["overlap_exposure"] == (4.0 - 3.5) / 2.8


def test_rttm_with_stm_transcript_gives_the_transcript_utterances(tmp_path: Path):
    write_tone(tmp_path / "m.wav", 10.0)
    (tmp_path / "m.rttm").write_text(rttm_line("m", 0, 2, "A") + rttm_line("m", 1, 2, "B"))
    (tmp_path / "m.stm").write_text("m 1 A 0.0 2.0 hello there\nm 1 B 1.0 3.0 hi\n")
    spec = folder_source(tmp_path, transcripts="*.stm")
    (item,) = ingest_source(spec).recordings
    rows = utterance_rows(item)
    assert [(r["speaker"], r["words"], r["overlap_exposure"]) for r in rows] == [
        ("c::m::A", "hello there", 0.5),
        ("c::m::B", "hi", 0.5),
    ]


def test_lhotse_command_source_is_named_in_the_rejection(tmp_path: Path):
    from lhotse import Recording, RecordingSet, SupervisionSegment, SupervisionSet
    from lhotse.audio import AudioSource

    recording = Recording(
        id="R1",
        sources=[AudioSource(type="command", channels=[0], source="sox in.sph -t wav -")],
        sampling_rate=16000,
        num_samples=160000,
        duration=10.0,
    )
    RecordingSet.from_recordings([recording]).to_file(tmp_path / "recordings.jsonl")
    supervisions = [
        SupervisionSegment(id="s1", recording_id="R1", start=0, duration=1, speaker="A")
    ]
    SupervisionSet.from_segments(supervisions).to_file(tmp_path / "supervisions.jsonl")
    spec = folder_source(
        tmp_path, "lhotse", "supervisions.jsonl", None, "l", recordings="recordings.jsonl"
    )
    (rejection,) = ingest_source(spec).rejections
    assert "audio source of type command" in rejection.reason and "sox in.sph" in rejection.reason


def test_tiers_that_tile_each_other_are_one_speaker(tmp_path: Path):
    """An aligner TextGrid whose tiers are not named words/phones: the finer one is dropped."""
    grid = ALIGNER_TEXTGRID.replace("anna - words", "utt").replace("anna - phones", "utt-detail")
    grid = grid.replace(
        'intervals: size = 2\n        intervals [1]:\n            xmin = 0\n            xmax = 1.5\n            text = "HH AH L OW"',
        'intervals: size = 3\n        intervals [1]:\n            xmin = 0\n            xmax = 0.7\n            text = "HH AH"\n        intervals [3]:\n            xmin = 0.7\n            xmax = 1.5\n            text = "L OW"',
    )
    path = tmp_path / "utt.TextGrid"
    path.write_text(grid)
    (session,) = read_textgrid(path)
    assert {s.speaker for s in session.segments} == {"utt"}
    assert any("tiles tier 1 'utt' exactly" in n for n in session.notes)
