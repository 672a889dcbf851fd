"""NIST STM: ``<file> <chnl> <speaker> <start> <end> [<label>] <words...>`` (sclite), one
utterance a line, as the AISHELL-4 evaluation references are.

Lines of the excluded-region kind (speaker ``inter_segment_gap``, or transcript
``ignore_time_segment_in_scoring``) are not speech and are skipped, each counted in the
session's notes. Written by :func:`write` (whitespace in a label becomes ``_``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from msbench.io.collector import SessionCollector, is_comment, one_field
from msbench.io.sample import Sample
from msbench.records import SessionAnnotation
from msbench.textio import read_text, split_lines

#: STM speakers and transcripts that mark regions excluded from scoring (NIST sclite), not speech.
STM_EXCLUDED_SPEAKERS = frozenset({"inter_segment_gap", "excluded_region"})
STM_EXCLUDED_TEXT = frozenset({"ignore_time_segment_in_scoring"})


def read_stm(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    """STM lines ``<file> <chnl> <speaker> <start> <end> [<label>] <words...>`` (NIST sclite).

    A speaker-attributed reference as the AISHELL-4 evaluation STMs are: one
    line per utterance. Lines of the excluded-region kind
    (speaker ``inter_segment_gap``, or transcript ``ignore_time_segment_in_scoring``)
    are not speech and are skipped, each counted in the session's notes.
    """
    collector = SessionCollector(str(path))
    for number, line in enumerate(split_lines(read_text(path, encoding)), start=1):
        if is_comment(line):
            continue
        fields = line.split()
        if len(fields) < 5:
            problem = f"{path}:line {number}: STM line has {len(fields)} fields, needs at least 5"
            collector.problem(fields[0], problem + " (<file> <chnl> <speaker> <start> <end> words)")
            continue
        words = fields[5:]
        if words and words[0].startswith("<") and words[0].endswith(">"):
            words = words[1:]
        if fields[2].lower() in STM_EXCLUDED_SPEAKERS or (
            " ".join(words).lower() in STM_EXCLUDED_TEXT
        ):
            collector.note(fields[0], f"{path}:line {number}: excluded region, not speech")
            continue
        try:
            start, end = float(fields[3]), float(fields[4])
        except ValueError:
            collector.problem(fields[0], f"{path}:line {number}: start/end are not numbers")
            continue
        collector.add(fields[0], fields[2], start, end, f"line {number}", " ".join(words))
    return collector.sessions()


def numeric(text: str) -> bool:
    """A field that reads as a number (``"1.5"``, ``"1e3"``; not ``"hello"``)."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def stm_lines(sample: Sample) -> int:
    """How many lines read as STM (five fields or more, the 4th and 5th numbers)."""
    return sum(len(f) >= 5 and numeric(f[3]) and numeric(f[4]) for f in sample.fields)


def detect(sample: Sample) -> bool:
    """Some line reads as STM (tried after CTM, whose lines also have numbers there)."""
    return stm_lines(sample) > 0


def write(segments: Iterable[Mapping[str, Any]]) -> str:
    """NIST STM lines: ``<session> 1 <speaker> <start> <end> <words>``, in the order given.

    >>> print(write([{"session_id": "u1", "speaker": "spk 0", "start_time": 0.5,
    ...               "end_time": 2.25, "words": "hello there"}]), end="")
    u1 1 spk_0 0.5 2.25 hello there
    """
    return "".join(
        f"{one_field(s['session_id'])} 1 {one_field(s['speaker'])} {s['start_time']} "
        f"{s['end_time']} {' '.join(str(s.get('words') or '').split())}\n"
        for s in segments
    )
