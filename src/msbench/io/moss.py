"""MOSS-Transcribe-Diarize's transcript (OpenMOSS, Apache-2.0): speaker turns as generated text,
``[start][Sxx]text[end]`` one after another, times in seconds, ``Sxx`` a 1-based anonymous
speaker, e.g. ``[0.48][S01]Welcome.[1.66][1.70][S02]Thanks for having me.[3.20]`` (the grammar
transcribe.cpp's ``arch/moss/diarize.h`` parses; FunASR keeps it as ``raw_text``). Recognised by
content; a stream that stops inside a turn (no closing time) is
:data:`~msbench.io.cutoff.CUT_OFF`, never scored as what survived.
"""

from __future__ import annotations

import re

from msbench.errors import InputError
from msbench.io.cutoff import CUT_OFF
from msbench.io.sample import Sample
from msbench.records import Segment
from msbench.timeline import parse_seconds

TIME = r"\[(?P<{}>\d+(?:\.\d+)?)\]"
TURN = re.compile(
    TIME.format("start") + r"\[(?P<speaker>S\d+)\](?P<words>.*?)" + TIME.format("end"), re.S
)
OPENING = re.compile(r"^\s*\[\d+(?:\.\d+)?\]\[S\d+\]")


def detect(sample: Sample) -> bool:
    """A text that opens with ``[time][Sxx]``."""
    return bool(OPENING.match(sample.stripped))


def read_moss(sample: Sample) -> list[Segment]:
    """Each ``[start][Sxx]text[end]`` one segment; anything between turns but whitespace, or a
    turn left open at the end, is an error naming where."""
    text, segments, at = sample.text.strip(), [], 0
    for k, turn in enumerate(TURN.finditer(text), start=1):
        if text[at : turn.start()].strip():
            raise InputError(
                sample.path,
                f"text outside a turn: {text[at : turn.start()].strip()[:60]!r}",
                where=f"character {at}",
                fix="each turn is [start][Sxx]text[end]",
            )
        segments.append(
            Segment(
                sample.session,
                parse_seconds(turn["start"]),
                parse_seconds(turn["end"]),
                turn["speaker"],
                turn["words"].strip(),
                f"{sample.path}:turn {k}",
            )
        )
        at = turn.end()
    if text[at:].strip():
        raise InputError(
            sample.path,
            f"{CUT_OFF}: the last turn {text[at:].strip()[:60]!r} has no end time",
            where=f"character {at}",
        )
    return segments
