"""Segments written in the formats msbench also reads: one function per format, named in the
format registry (:mod:`msbench.file_formats`, ``writer``); each writes what its reader reads
back (a test reads every written file back with msbench's reader and with meeteval's).

Segments are SegLST dicts (``session_id``, ``speaker``, ``start_time``, ``end_time``,
``words``). Times are written as Python prints the float (the shortest text that reads back
to the same number), never rounded; an RTTM duration is the exact decimal difference
(:func:`msbench.timeline.exact_difference`); WebVTT clocks are to the millisecond, exactly
(``Decimal``). Whitespace inside a speaker label becomes ``_`` in the line formats (RTTM,
STM), which split at it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from msbench.timeline import exact_difference

Segments = Iterable[Mapping[str, Any]]


def _field(text: str) -> str:
    """A speaker or session label as one whitespace-free field.

    >>> _field(" Speaker A ")
    'Speaker_A'
    """
    return re.sub(r"\s+", "_", str(text).strip())


def seglst_text(segments: Segments) -> str:
    """meeteval's SegLST: a JSON list of the segments, keys as given."""
    return json.dumps([dict(s) for s in segments], ensure_ascii=False, indent=2) + "\n"


def stm_text(segments: Segments) -> str:
    """NIST STM lines: ``<session> 1 <speaker> <start> <end> <words>``, in the order given.

    >>> print(stm_text([{"session_id": "u1", "speaker": "spk 0", "start_time": 0.5,
    ...                  "end_time": 2.25, "words": "hello there"}]), end="")
    u1 1 spk_0 0.5 2.25 hello there
    """
    return "".join(
        f"{_field(s['session_id'])} 1 {_field(s['speaker'])} {s['start_time']} {s['end_time']} "
        f"{' '.join(str(s.get('words') or '').split())}\n"
        for s in segments
    )


def rttm_text(segments: Segments) -> str:
    """NIST RTTM ``SPEAKER`` lines, by session then start (a stable sort: ties keep their order).

    >>> print(rttm_text([{"session_id": "r", "speaker": "B", "start_time": 46.92,
    ...                   "end_time": 54.48}]), end="")  # the float difference is 7.559999999999995
    SPEAKER r 1 46.92 7.56 <NA> <NA> B <NA> <NA>
    """
    ordered = sorted(segments, key=lambda s: (_field(s["session_id"]), float(s["start_time"])))
    return "".join(
        f"SPEAKER {_field(s['session_id'])} 1 {s['start_time']} "
        f"{exact_difference(s['end_time'], s['start_time'])} <NA> <NA> {_field(s['speaker'])} "
        "<NA> <NA>\n"
        for s in ordered
    )


def _clock(seconds: float) -> str:
    """``HH:MM:SS.mmm``, the milliseconds rounded on the decimal text.

    >>> _clock(3725.5), _clock(0.07)
    ('01:02:05.500', '00:00:00.070')
    """
    millis = int((Decimal(str(seconds)) * 1000).to_integral_value())
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def webvtt_text(segments: Segments) -> str:
    """WebVTT cues with voice spans (``<v spk0>words</v>``)."""
    cues = [
        f"{_clock(s['start_time'])} --> {_clock(s['end_time'])}\n<v {s['speaker']}>{s['words']}</v>\n"
        for s in segments
    ]
    return "WEBVTT\n\n" + "\n".join(cues)
