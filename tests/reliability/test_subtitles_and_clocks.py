"""Subtitle and clock readers (issue 48, roots 2 to 4): clock fields out of range are errors
naming the line; a complete SRT without a final line end is complete; a cue of two voices gives
each voice its words."""

from __future__ import annotations

from pathlib import Path

import pytest

from msbench.errors import InputError
from msbench.io.read import read_segments

CUES = "1\n00:00:01,000 --> 00:00:03,500\n[SPEAKER_00]: hello there\n\n2\n00:00:04,000 --> 00:00:05,000\n[SPEAKER_01]: hi.\n"


def _read(tmp_path: Path, name: str, text: str) -> list:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return read_segments(path)


def test_a_complete_srt_without_a_final_line_end_is_read_whole(tmp_path: Path):
    segments = _read(tmp_path, "u.srt", CUES.rstrip("\n"))
    assert [(s.speaker, s.words, s.end_time) for s in segments] == [
        ("SPEAKER_00", "hello there", 3.5), ("SPEAKER_01", "hi.", 5.0),
    ]  # fmt: skip


@pytest.mark.parametrize(
    "cut, why",
    [("3\n00:00:06,000 --> 00:00:0", "ends inside a cue's number or times"),
     ("3", "ends inside a cue's number or times"),
     ("3\n00:00:06,000 --> 00:00:07,000\n[SPEAKER_00]: and then we", "stops mid-sentence")],
)  # fmt: skip
def test_an_srt_cut_inside_its_last_cue_is_incomplete(tmp_path: Path, cut: str, why: str):
    with pytest.raises(InputError, match=rf"incomplete: .*{why}"):
        _read(tmp_path, "u.srt", CUES + "\n" + cut)


def test_a_timestamped_text_cut_mid_word_is_incomplete(tmp_path: Path):
    whole = "[00:01.00 - 00:03.00] Speaker 0: hello there.\n[00:03.50 - 00:05.00] Speaker 1: fine, thanks.\n"
    assert (
        len(_read(tmp_path, "u.txt", whole))
        == len(_read(tmp_path, "v.txt", whole.rstrip("\n")))
        == 2
    )
    with pytest.raises(InputError, match=r"incomplete: .*stops mid-sentence"):
        _read(tmp_path, "w.txt", whole[:-6])


def test_a_clock_field_out_of_range_names_its_line(tmp_path: Path):
    with pytest.raises(InputError, match=r"u.srt:line 2: not a time: '00:00:68.436'"):
        _read(tmp_path, "u.srt", CUES.replace("00:00:01,000", "00:00:68,436"))
    with pytest.raises(InputError, match=r"u.txt:line 1: not a time: '00:75.00'"):
        _read(tmp_path, "u.txt", "[00:75.00 - 00:99.50] Speaker 0: hello there\n")


def test_each_webvtt_voice_of_a_cue_gets_its_own_words(tmp_path: Path):
    text = (
        "WEBVTT\n\n00:00:01.000 --> 00:00:04.000\n"
        "<v Speaker 0>I didn't know you were there.</v> <v Speaker 1>Neither did I.</v>\n"
    )
    segments = _read(tmp_path, "u.vtt", text)
    assert [(s.speaker, s.words) for s in segments] == [
        ("Speaker 0", "I didn't know you were there."), ("Speaker 1", "Neither did I."),
    ]  # fmt: skip
    assert {(s.start_time, s.end_time) for s in segments} == {(1.0, 4.0)}
