"""UEMs on the construction side: every span kept (their union), durations of scored time,
features measured inside it, units from its first to its last instant, one bad line or file
rejecting only what it concerns."""

from __future__ import annotations

from pathlib import Path

import pytest

from msbench.features.feature_rows import interaction_row
from msbench.ingest.source import ingest_source
from msbench.io.uem import read_uem
from msbench.scoring.units import Unit, recording_spans, silence_cuts, whole_recordings
from tests.helpers.fixtures import folder_source, rttm_line, write_tone


def reasons(result) -> dict[str, str]:
    return {r.recording_id.split("::")[1]: r.reason for r in result.rejections}


def test_a_multi_span_uem_crops_to_its_union_and_sets_duration_and_overlap(tmp_path: Path):
    """md-eval's sd_test1 shape: three spans for one file, 10-15, 20-24, 26-30 s."""
    write_tone(tmp_path / "m.wav", 32.0)
    (tmp_path / "m.rttm").write_text(
        rttm_line("m", 10.0, 5.0, "A")  # inside span 1
        + rttm_line("m", 14.0, 7.0, "B")  # 14-21: across the 15-20 gap -> two pieces
        + rttm_line("m", 16.0, 2.0, "C")  # in the gap: dropped
        + rttm_line("m", 26.5, 1.0, "A")  # inside span 3
        + rttm_line("m", 28.0, 1.0, "B")  # a change inside span 3, 0.5 s after A
    )
    (tmp_path / "m.uem").write_text("m 1 10.0 15.0\nm 1 20.0 24.0\nm 1 26.0 30.0\n")
    (item,) = ingest_source(folder_source(tmp_path, uem="*.uem")).recordings
    assert item.recording.duration_seconds == 13.0  # 5 + 4 + 4 s of scored time
    assert item.scored_spans == ((10.0, 15.0), (20.0, 24.0), (26.0, 30.0))
    kept = [(s.speaker, s.start_time, s.end_time) for s in item.segments]
    assert kept == [
        ("A", 10.0, 15.0), ("B", 14.0, 15.0), ("B", 20.0, 21.0), ("A", 26.5, 27.5), ("B", 28.0, 29.0),
    ]  # fmt: skip
    note = next(n for n in item.notes if n.startswith("UEM"))
    assert "1 segment(s) split across a gap" in note and "1 segment(s) outside every span" in note
    row = interaction_row(item)
    assert row["overlap_ratio"] == pytest.approx(1.0 / 13.0)  # A and B overlap 14-15 s
    assert row["num_speakers"] == 2  # C spoke only in unscored time
    # B at 20 s after A (ends 15 s) and A at 26.5 s after B (ends 21 s): their gaps hold
    # unscored time, so they are not measured; B at 28 s after A is a change of 0.5 s
    assert row["num_speaker_switches"] == 1 and row["speaker_switch_q25"] == pytest.approx(0.5)
    assert "2 speaker change(s) across a gap between UEM spans not counted" in row["ingest_notes"]
    assert row["scored_spans"] == [[10.0, 15.0], [20.0, 24.0], [26.0, 30.0]]


def test_a_uem_that_starts_late_gives_units_from_its_start(tmp_path: Path):
    """CHiME-6 UEMs start after 0 (S02: 40.6 s): units are not [0, scored length)."""
    spans = ((40.6, 100.0),)
    (unit,) = whole_recordings([("c::S02", spans)])
    assert (unit.start, unit.end, unit.uem) == (40.6, 100.0, spans)
    cuts = silence_cuts("c::S02", spans, [], 30.0, 10.0)
    assert cuts[0].start == 40.6 and cuts[-1].end == 100.0
    assert recording_spans({"duration_seconds": 59.4}) == ((0.0, 59.4),)  # an older benchmark.csv
    assert Unit("u", "c::m", 12.0, 27.0, ((10.0, 15.0), (20.0, 24.0), (26.0, 30.0))).uem == (
        (12.0, 15.0), (20.0, 24.0), (26.0, 27.0),
    )  # fmt: skip


def test_uem_problems_reject_only_their_session(tmp_path: Path):
    for name in ("good", "badline", "nan", "inverted", "overlap", "outside", "nouem"):
        write_tone(tmp_path / f"{name}.wav", 20.0)
    (tmp_path / "all.rttm").write_text(
        "".join(rttm_line(name, 1.0, 5.0, "A") + rttm_line(name, 6.0, 3.0, "B")
                for name in ("good", "badline", "nan", "inverted", "overlap", "outside", "nouem"))
    )  # fmt: skip
    (tmp_path / "a.uem").write_text(
        "good 1 0.0 12.0\nbadline 1 0.0\nnan 1 0.0 nan\ninverted 1 10.0 2.0\n"
        "overlap 1 0.0 8.0\noverlap 1 5.0 12.0\noutside 1 30.0 40.0\n"
    )
    result = ingest_source(folder_source(tmp_path, annotations="all.rttm", uem="*.uem"))
    why = reasons(result)
    assert sorted(why) == ["badline", "inverted", "nan", "outside", "overlap"]
    assert "a.uem:line 2: UEM line has 3 field(s)" in why["badline"]
    assert "a.uem:line 3" in why["nan"] and "not finite" in why["nan"]
    assert "a.uem:line 4: inverted UEM span" in why["inverted"]
    assert "a.uem:line 6" in why["overlap"] and "overlaps the span of line 5" in why["overlap"]
    assert "outside the audio" in why["outside"]
    durations = {r.recording.session_id: r.recording.duration_seconds for r in result.recordings}
    assert durations == {"good": 12.0, "nouem": 20.0}  # the others are not silently uncropped
    nouem = next(r for r in result.recordings if r.recording.session_id == "nouem")
    assert any("no UEM line for this session" in n for n in nouem.notes)


def test_two_uem_files_that_disagree_reject_the_session(tmp_path: Path):
    for name in ("a", "b"):
        write_tone(tmp_path / f"{name}.wav", 20.0)
        (tmp_path / f"{name}.rttm").write_text(rttm_line(name, 1.0, 5.0, "A"))
    (tmp_path / "one.uem").write_text("a 1 0.0 12.0\nb 1 0.0 10.0\n")
    (tmp_path / "two.uem").write_text("a 1 0.0 15.0\nb 1 0.0 10.0\n")
    result = ingest_source(folder_source(tmp_path, uem="*.uem"))
    why = reasons(result)
    assert list(why) == ["a"] and "differ between" in why["a"] and "two.uem" in why["a"]
    assert [r.recording.session_id for r in result.recordings] == ["b"]


def test_an_unreadable_uem_file_rejects_the_sessions_it_may_hold(tmp_path: Path):
    for name in ("a", "b"):
        write_tone(tmp_path / f"{name}.wav", 20.0)
        (tmp_path / f"{name}.rttm").write_text(rttm_line(name, 1.0, 5.0, "A"))
    (tmp_path / "one.uem").write_text("a 1 0.0 12.0\n")
    (tmp_path / "two.uem").write_bytes(b"b 1 0.0 \xff\xfe10.0\n")  # not text in any encoding
    result = ingest_source(folder_source(tmp_path, uem="*.uem"))
    why = reasons(result)
    assert list(why) == ["b"] and "two.uem" in why["b"] and "could not be read" in why["b"]
    assert [r.recording.duration_seconds for r in result.recordings] == [12.0]


def test_touching_spans_join_and_zero_length_spans_are_noted(tmp_path: Path):
    (tmp_path / "x.uem").write_text("s 1 0 5\ns 1 5 9.5\n; dscore's comment\ns 1 12 12\n")
    table = read_uem(tmp_path / "x.uem")
    assert table.spans == {"s": ((0.0, 9.5),)}
    assert "zero-length UEM span at 12.000 s ignored" in table.notes["s"][0]
