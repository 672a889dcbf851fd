"""MOSS-Transcribe-Diarize's transcript (OpenMOSS, Apache-2.0): speaker turns as generated text,
``[start][Sxx]text[end]`` one after another, times in seconds, ``Sxx`` a 1-based anonymous
speaker, e.g. ``[0.48][S01]Welcome.[1.66][1.70][S02]Thanks for having me.[3.20]`` (the grammar
of the model's own parser, ``moss_transcribe_diarize/transcript_parser.py``; transcribe.cpp's
``arch/moss/diarize.h``; FunASR keeps it as ``raw_text``). Recognised by content.

**Where a bracket is a time** (the model's parser's rule): inside a turn's text, ``[number]``
ends the turn only where the next thing after it (whitespace apart) is the next turn's ``[`` or
the end of the transcript, and only when it is not before the turn's start; anywhere else it is
text: ``[0][S01]第[2024]年，编号[001]继续[4]`` is one turn from 0 to 4 s whose text keeps
``[2024]`` and ``[001]``, and ``[0.48][S01]see section [3] now[1.66][2.0][S02]ok[3.0]`` is two.
A turn without ``[Sxx]`` (``[0.0]text[2.0]``) is speaker ``S01``, as the model's parser reads it.

Where msbench is stricter than that parser, it says so instead of dropping text: anything
before the first turn or between turns but whitespace is an error naming where (the parser
skips it), and a stream that stops inside a turn (no closing time) is
:data:`~msbench.io.cutoff.CUT_OFF`, never scored as what survived.
"""

from __future__ import annotations

import re

from msbench.errors import InputError
from msbench.io.cutoff import CUT_OFF
from msbench.io.sample import Sample
from msbench.records import Segment
from msbench.timeline import parse_seconds

NUMBER = r"\d+(?:\.\d+)?"
#: A bracket that would be a time but is none msbench reads: NaN, Infinity, a negative number.
BAD_TIME = re.compile(r"\[\s*(?:[+-]?(?:nan|inf(?:inity)?)|-\s*\d+(?:\.\d+)?)\s*\]", re.IGNORECASE)
OPENING = re.compile(rf"\[(?P<start>{NUMBER})\](?:\[(?P<speaker>S\d+)\])?")
TIME = re.compile(rf"\[(?P<time>{NUMBER})\]")
#: What must follow a closing time: the next turn's bracket, or the end of the transcript.
FOLLOWED = re.compile(r"\s*(?:\[|\Z)")
DEFAULT_SPEAKER = "S01"
FIX = "each turn is [start][Sxx]text[end]"


def detect(sample: Sample) -> bool:
    """A text that opens with ``[time][Sxx]``."""
    return bool(re.match(rf"^\s*\[{NUMBER}\]\[S\d+\]", sample.stripped))


def read_moss(sample: Sample) -> list[Segment]:
    """Each ``[start][Sxx]text[end]`` one segment (the module docstring's rule for brackets);
    anything between turns but whitespace, or a turn left open at the end, is an error."""
    text, at = sample.text.strip(), 0
    if bad := BAD_TIME.search(text):
        turn = len(OPENING.findall(text[: bad.start()]))
        raise InputError(
            sample.path,
            f"turn {max(turn, 1)}: the time {bad.group()} is not a finite time at or after 0",
            where=f"character {bad.start()}",
            fix=FIX,
        )
    segments: list[Segment] = []
    while at < len(text):
        opening = OPENING.match(text, at)
        if opening is None:
            raise InputError(
                sample.path,
                f"text outside a turn: {text[at:].strip()[:60]!r}",
                where=f"character {at}",
                fix=FIX,
            )
        start = parse_seconds(opening["start"])
        end = _turn_end(text, opening.end(), start)
        if end is None:
            raise InputError(
                sample.path,
                f"{CUT_OFF}: the last turn {text[opening.start() :].strip()[:60]!r} has no end time",
                where=f"character {opening.start()}",
            )
        words = text[opening.end() : end.start()].strip()
        segments.append(
            Segment(
                sample.session,
                start,
                parse_seconds(end["time"]),
                opening["speaker"] or DEFAULT_SPEAKER,
                words,
                f"{sample.path}:turn {len(segments) + 1}",
            )
        )
        at = end.end()
        while at < len(text) and text[at].isspace():
            at += 1
    return segments


def _turn_end(text: str, at: int, start: float) -> re.Match[str] | None:
    """The turn's closing time: the first ``[number]`` from ``at`` not before ``start`` that is
    followed (whitespace apart) by ``[`` or the end of the text; None when there is none."""
    for candidate in TIME.finditer(text, at):
        followed = FOLLOWED.match(text, candidate.end()) is not None
        if followed and parse_seconds(candidate["time"]) >= start:
            return candidate
    return None
