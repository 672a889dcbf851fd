"""RTTM speaker-activity files, optionally with a UEM and an STM or SegLST transcript.

RTTM line: ``SPEAKER <file> <chnl> <tbeg> <tdur> <ortho> <stype> <name> <conf> <slat>``
(NIST RT-09). Only ``SPEAKER`` lines carry segments; comment (``;;`` or ``#``)
and other record types are ignored. A ``speaker`` type in another case is read
as ``SPEAKER`` with a note; a ``SPEAKER`` line without a file field is skipped
with a note (it names no session). Times are seconds; ``<NA>`` as a speaker
name counts as an empty label.
"""

from __future__ import annotations

import math
from pathlib import Path

from msbench.ingest.adapters.common import SessionCollector
from msbench.records import SessionAnnotation
from msbench.textio import read_text, split_lines
from msbench.timeline import exact_sum


def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith((";;", "#"))


def read_rttm(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    collector = SessionCollector(str(path))
    for number, line in enumerate(split_lines(read_text(path, encoding)), start=1):
        if _is_comment(line):
            continue
        fields = line.split()
        if fields[0].upper() != "SPEAKER":
            continue
        if len(fields) < 8:
            problem = (
                f"{path}:line {number}: RTTM line has {len(fields)} fields, expected 10 "
                "(SPEAKER <file> <chnl> <tbeg> <tdur> <NA> <NA> <name> <NA> <NA>)"
            )
            if len(fields) < 2:
                collector.skip(problem)
            else:
                collector.problem(fields[1], problem)  # only this session is rejected
            continue
        if fields[0] != "SPEAKER":
            collector.note(fields[1], f"{path}:line {number}: type {fields[0]!r} read as 'SPEAKER'")
        session, speaker = fields[1], fields[7]
        try:
            start, duration = float(fields[3]), float(fields[4])
        except ValueError:
            collector.problem(
                session,
                f"{path}:line {number}: tbeg/tdur {fields[3]!r} {fields[4]!r} are not numbers",
            )
            continue
        end = (
            exact_sum(fields[3], fields[4]) if math.isfinite(start + duration) else start + duration
        )
        collector.add(session, speaker, start, end, f"line {number}")
    return collector.sessions()


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
        if _is_comment(line):
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
