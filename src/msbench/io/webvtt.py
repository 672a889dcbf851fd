"""WebVTT subtitles with voice spans (``<v Speaker 1>``) or speaker prefixes
(:mod:`msbench.io.cues` reads them); written by :func:`write` with one voice span a cue,
clocks to the millisecond, exactly (``Decimal``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any

from msbench.io.cues import read_cues
from msbench.io.sample import Sample

read_webvtt = read_cues


def detect(sample: Sample) -> bool:
    """A ``WEBVTT`` header."""
    return sample.text.lstrip("\ufeff \n").startswith("WEBVTT")


def clock(seconds: float) -> str:
    """``HH:MM:SS.mmm``, the milliseconds rounded on the decimal text.

    >>> clock(3725.5), clock(0.07)
    ('01:02:05.500', '00:00:00.070')
    """
    millis = int((Decimal(str(seconds)) * 1000).to_integral_value())
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    return f"{hours:02d}:{minutes:02d}:{rest // 1000:02d}.{rest % 1000:03d}"


def write(segments: Iterable[Mapping[str, Any]]) -> str:
    """WebVTT cues with voice spans (``<v spk0>words</v>``)."""
    cues = [
        f"{clock(s['start_time'])} --> {clock(s['end_time'])}\n<v {s['speaker']}>{s['words']}</v>\n"
        for s in segments
    ]
    return "WEBVTT\n\n" + "\n".join(cues)
