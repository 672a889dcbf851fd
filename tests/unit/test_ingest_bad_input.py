"""Every kind of bad input: a clear reason for that recording, and all others still pass."""

from __future__ import annotations

from pathlib import Path

import pytest

from msbench.features.collect import mark_eligibility
from msbench.features.feature_rows import interaction_row
from msbench.ingest.sheet import SourceSpec
from msbench.ingest.source import ingest_source
from tests.helpers.fixtures import AISHELL4_TEXTGRID, rttm_line, write_tone


@pytest.fixture
def rttm_source(tmp_path: Path) -> SourceSpec:
    audio = tmp_path / "audio"
    for session in ("good", "toolong", "clipped", "zero", "nolabel", "dup", "solo"):
        write_tone(audio / f"{session}.wav", 10.0)
    write_tone(audio / "stereo.wav", 10.0, channels=2)
    (audio / "corrupt.wav").write_bytes(b"RIFF\x00\x00\x00\x00WAVEgarbage")
    lines = [
        rttm_line("good", 0.0, 4.0, "A"),
        rttm_line("good", 4.5, 3.0, "B"),
        rttm_line("noaudio", 0.0, 2.0, "A"),
        rttm_line("noaudio", 2.5, 2.0, "B"),
        rttm_line("corrupt", 0.0, 2.0, "A"),
        rttm_line("corrupt", 2.5, 2.0, "B"),
        rttm_line("toolong", 0.0, 2.0, "A"),
        rttm_line("toolong", 3.0, 9.0, "B"),
        rttm_line("clipped", 0.0, 2.0, "A"),
        rttm_line("clipped", 3.0, 7.3, "B"),
        rttm_line("clipped", 10.2, 0.1, "A"),
        rttm_line("zero", 0.0, 2.0, "A"),
        rttm_line("zero", 3.0, 0.0, "B"),
        rttm_line("nolabel", 0.0, 2.0, "A"),
        rttm_line("nolabel", 3.0, 1.0, "<NA>"),
        rttm_line("dup", 0.0, 2.0, "A"),
        rttm_line("solo", 0.0, 2.0, "A"),
        rttm_line("solo", 3.0, 2.0, "A"),
        rttm_line("stereo", 0.0, 2.0, "A"),
        rttm_line("stereo", 2.5, 2.0, "B"),
    ]
    (tmp_path / "one.rttm").write_text("".join(lines), encoding="utf-8")
    (tmp_path / "two.rttm").write_text(rttm_line("dup", 5.0, 1.0, "B"), encoding="utf-8")
    return SourceSpec(
        name="corpus",
        adapter="rttm",
        annotations=str(tmp_path / "*.rttm"),
        audio=str(audio / "{session}.wav"),
        language="English",
    )


def reasons_by_session(result) -> dict[str, str]:
    return {r.recording_id.split("::")[1]: r.reason for r in result.rejections if r.recording_id}


def test_each_bad_recording_is_rejected_with_its_reason(rttm_source: SourceSpec):
    result = ingest_source(rttm_source)
    reasons = reasons_by_session(result)
    assert "audio file not found" in reasons["noaudio"]
    assert "corrupt audio header" in reasons["corrupt"]
    assert (
        "segment ends at 12.000 s" in reasons["toolong"] and "0.5 s tolerance" in reasons["toolong"]
    )
    assert "one.rttm:line 15" in reasons["nolabel"] and "empty speaker label" in reasons["nolabel"]
    assert "appears 2 times" in reasons["dup"] and "two.rttm" in reasons["dup"]
    assert len(result.rejections) == 5
    # a zero-length segment holds no speech: kept for its words (none in an RTTM), noted;
    # the session goes on
    zero = next(r for r in result.recordings if r.recording.session_id == "zero")
    assert [s.speaker for s in zero.segments if s.end_time > s.start_time] == ["A"]
    assert any("one.rttm:line 13" in n and "zero-length" in n for n in zero.notes)


def test_strict_segments_rejects_a_zero_length_segment(rttm_source: SourceSpec):
    from msbench.ingest.source import IngestSettings

    reasons = reasons_by_session(ingest_source(rttm_source, IngestSettings(strict_segments=True)))
    assert "one.rttm:line 13" in reasons["zero"] and "ingest.strict_segments" in reasons["zero"]


def test_configured_channel_is_used_and_recorded(rttm_source: SourceSpec):
    second_channel = SourceSpec(**{**rttm_source.__dict__, "channel": 1})
    result = ingest_source(second_channel)
    assert "channel 1 configured, file has 1" in reasons_by_session(result)["good"]
    stereo = next(r for r in result.recordings if r.recording.session_id == "stereo")
    assert (stereo.recording.channel, stereo.recording.num_channels) == (1, 2)


def test_clipping_within_tolerance_and_single_speaker(rttm_source: SourceSpec):
    result = ingest_source(rttm_source)
    accepted = {r.recording.session_id: r for r in result.recordings}
    assert sorted(accepted) == ["clipped", "good", "solo", "stereo", "zero"]
    clipped = accepted["clipped"]
    assert max(s.end_time for s in clipped.segments) == 10.0
    assert len(clipped.segments) == 2
    assert any("end clipped from 10.300 to 10.000 s" in note for note in clipped.notes)
    assert any("removed, starts after the audio end" in note for note in clipped.notes)
    # single speaker: characterized, flagged ineligible with its reason
    rows = mark_eligibility([interaction_row(r) for r in result.recordings], 2, 1.5)
    solo = next(row for row in rows if row["recording_id"] == "corpus::solo")
    assert solo["eligible"] is False and "fewer than 2 speakers (1)" in solo["ineligible_reasons"]
    good = next(row for row in rows if row["recording_id"] == "corpus::good")
    # two speakers and a defined T: only the model features (S, N), not yet computed here, are missing
    assert (
        good["ineligible_reasons"].startswith("S undefined")
        and "speakers (" not in good["ineligible_reasons"]
    )
    # the message carries the configured clean-segment length, the codes are stable
    assert "clean speech over 1.5 s" in good["ineligible_reasons"]
    assert good["ineligible_codes"] == "s_undefined; n_undefined"
    assert solo["ineligible_codes"].startswith("few_speakers")


def test_empty_annotation_and_unknown_encoding(tmp_path: Path):
    write_tone(tmp_path / "M_good.wav", 13.0)
    write_tone(tmp_path / "M_empty.wav", 13.0)
    write_tone(tmp_path / "M_gbk.wav", 13.0)
    (tmp_path / "M_good.TextGrid").write_text(AISHELL4_TEXTGRID, encoding="utf-16")
    empty = AISHELL4_TEXTGRID
    for text in ('"我们 今天 讨论 <%> 一下"', '"好的"', '"那 我 先 说"'):
        empty = empty.replace(text, '""')
    (tmp_path / "M_empty.TextGrid").write_text(empty, encoding="utf-8")
    (tmp_path / "M_gbk.TextGrid").write_bytes(AISHELL4_TEXTGRID.encode("gbk"))
    spec = SourceSpec(
        name="aishell4",
        adapter="textgrid",
        annotations=str(tmp_path / "*.TextGrid"),
        audio=str(tmp_path / "{session}.wav"),
    )
    result = ingest_source(spec)
    assert [r.recording.recording_id for r in result.recordings] == ["aishell4::M_good"]
    by_file = {Path(r.file).name: r.reason for r in result.rejections}
    assert "empty annotation" in by_file["M_empty.TextGrid"]
    assert (
        "line 22" in by_file["M_gbk.TextGrid"]
        and "unknown text encoding" in by_file["M_gbk.TextGrid"]
    )
    assert len(result.rejections) == 2


def test_missing_annotation_glob_is_reported(tmp_path: Path):
    spec = SourceSpec(name="x", adapter="rttm", annotations=str(tmp_path / "nothing/*.rttm"))
    result = ingest_source(spec)
    assert result.recordings == []
    assert "no annotation file matches" in result.rejections[0].reason
