"""Timestamped text as speech LLMs write it, one line per turn:
``[00:01.20 - 00:04.56] Speaker 1: text`` and close variants (``-->``, ``hh:mm:ss``,
``SPEAKER_01``, ``S1``, ``<spk1>``); a line that does not parse is an error naming the line, and
a last line cut mid-sentence without a final line end is :data:`~msbench.io.cutoff.CUT_OFF`.
"""

from __future__ import annotations

import re

from msbench.errors import InputError
from msbench.io.cutoff import CUT_OFF, unterminated_end
from msbench.io.sample import Sample
from msbench.records import Segment
from msbench.textio import split_lines
from msbench.timeline import parse_seconds

_CLOCK = r"(?:\d+:)?(?:\d+:)?\d+(?:\.\d+)?"
#: ``[start - end] speaker: text``; the speaker is whatever precedes the first colon.
TIMESTAMPED_LINE = re.compile(
    rf"^\s*\[\s*(?P<start>{_CLOCK})\s*(?:-|–|-->|to)\s*(?P<end>{_CLOCK})\s*\]\s*"
    r"(?P<speaker>[^:：]{1,40}?)\s*[:：]\s*(?P<words>.*)$"
)


def detect(sample: Sample) -> bool:
    """Most lines are ``[start - end] speaker: words``."""
    fields = sample.fields
    return sum(bool(TIMESTAMPED_LINE.match(" ".join(f))) for f in fields) > len(fields) / 2


def read_text_turns(sample: Sample) -> list[Segment]:
    """``[start - end] speaker: words`` lines; blank lines are skipped, anything else fails.

    ``sample.pattern`` replaces the line pattern: a regular expression with the named
    groups ``start``, ``end``, ``speaker`` and ``words`` (a system's ``text_pattern``).
    """
    path, text = sample.path, sample.text
    line_pattern = re.compile(sample.pattern) if sample.pattern else TIMESTAMPED_LINE
    segments = []
    lines = split_lines(text)
    if problem := unterminated_end(text):
        raise InputError(path, f"{CUT_OFF}: {problem}", where=f"line {len(lines)}")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        match = line_pattern.match(line)
        if match is None:
            raise InputError(
                path,
                f"cannot parse {line.strip()[:80]!r}",
                where=f"line {number}",
                fix="expected [mm:ss.ss - mm:ss.ss] Speaker N: text",
            )
        try:
            start, end = parse_seconds(match["start"]), parse_seconds(match["end"])
        except ValueError as error:
            raise InputError(path, str(error), where=f"line {number}") from error
        segments.append(
            Segment(
                sample.session,
                start,
                end,
                match["speaker"].strip(),
                match["words"].strip(),
                f"{path}:line {number}",
            )
        )
    return segments
