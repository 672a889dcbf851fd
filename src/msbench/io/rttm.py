"""RTTM speaker-activity files, optionally with a UEM and an STM or SegLST transcript.

RTTM line: ``SPEAKER <file> <chnl> <tbeg> <tdur> <ortho> <stype> <name> <conf> <slat>``
(NIST RT-09). Only ``SPEAKER`` lines carry segments; comment (``;;`` or ``#``)
and other record types are ignored. A ``speaker`` type in another case is read
as ``SPEAKER`` with a note; a ``SPEAKER`` line without a file field is skipped
with a note (it names no session). Times are seconds; ``<NA>`` as a speaker
name counts as an empty label.

Written by :func:`write` (``SPEAKER`` lines by session then start; a duration is the exact
decimal difference of the two times, :func:`msbench.timeline.exact_difference`; whitespace in a
label becomes ``_``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from msbench.io.collector import SessionCollector, is_comment, one_field
from msbench.io.sample import Sample
from msbench.records import SessionAnnotation
from msbench.textio import read_text, split_lines
from msbench.timeline import exact_difference, exact_sum


def read_rttm(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    collector = SessionCollector(str(path))
    for number, line in enumerate(split_lines(read_text(path, encoding)), start=1):
        if is_comment(line):
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


def detect(sample: Sample) -> bool:
    """Every line that is not blank or a comment is a ``SPEAKER`` line."""
    return bool(sample.fields) and all(f[0] == "SPEAKER" for f in sample.fields)


def write(segments: Iterable[Mapping[str, Any]]) -> str:
    """NIST RTTM ``SPEAKER`` lines, by session then start (a stable sort: ties keep their order).

    >>> print(write([{"session_id": "r", "speaker": "B", "start_time": 46.92,
    ...               "end_time": 54.48}]), end="")  # the float difference is 7.559999999999995
    SPEAKER r 1 46.92 7.56 <NA> <NA> B <NA> <NA>
    """
    ordered = sorted(segments, key=lambda s: (one_field(s["session_id"]), float(s["start_time"])))
    return "".join(
        f"SPEAKER {one_field(s['session_id'])} 1 {s['start_time']} "
        f"{exact_difference(s['end_time'], s['start_time'])} <NA> <NA> {one_field(s['speaker'])} "
        "<NA> <NA>\n"
        for s in ordered
    )
