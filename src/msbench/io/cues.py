"""Subtitle cues whose text names its speaker, as SRT (:mod:`msbench.io.srt`) and WebVTT
(:mod:`msbench.io.webvtt`) hold them: WebVTT voice spans ``<v Speaker 1>`` (each span of a cue
its own segment, with the cue's times), or a ``Speaker 1:`` / ``[SPEAKER_00]:`` prefix (as
WhisperX writes them); a cue without a speaker is an error naming its line.
"""

from __future__ import annotations

import re
from pathlib import Path

from msbench.errors import InputError
from msbench.io.cutoff import CUT_OFF, unterminated_end
from msbench.io.sample import Sample
from msbench.records import Segment
from msbench.textio import split_lines
from msbench.timeline import parse_seconds

CUE_TIME = re.compile(
    r"^\s*(?P<start>(?:\d+:)?\d+:\d+[.,]\d+)\s*-->\s*(?P<end>(?:\d+:)?\d+:\d+[.,]\d+)"
)
PREFIX = re.compile(r"^\[?(?P<speaker>[^\]:：]{1,40}?)\]?\s*[:：]\s*(?P<words>.*)$")
VOICE_SPAN = re.compile(r"<v(?:\.[^ >]*)?\s+(?P<speaker>[^>]+)>(?P<words>.*?)(?=<v[\s.]|$)")


def voices(path: str | Path, body: str, line: int) -> list[tuple[str, str]]:
    """A cue's ``(speaker, words)``: one per WebVTT voice span (a cue may hold several, each
    then given the cue's times), else the one ``Speaker:`` prefix; a cue without one is an error.

    >>> voices("x.vtt", "<v Speaker 0>I did not know.</v> <v Speaker 1>Neither did I.</v>", 3)
    [('Speaker 0', 'I did not know.'), ('Speaker 1', 'Neither did I.')]
    """
    spans = list(VOICE_SPAN.finditer(body)) if body.lstrip().startswith("<v") else []
    said = spans or [m for m in [PREFIX.match(body)] if m is not None]
    if not said:
        raise InputError(
            path,
            f"cue {body[:60]!r} names no speaker",
            where=f"line {line}",
            fix="write <v Speaker 1> or a 'Speaker 1:' prefix",
        )
    return [(m["speaker"].strip(), re.sub(r"</?[^>]+>", "", m["words"]).strip()) for m in said]


def starts_with_numbered_cue(sample: Sample) -> bool:
    """SRT's opening: a cue number, then ``start --> end``."""
    lines = [line for line in split_lines(sample.stripped) if line.strip()]
    return len(lines) >= 2 and lines[0].strip().isdigit() and bool(CUE_TIME.match(lines[1]))


def read_cues(sample: Sample) -> list[Segment]:
    """Every cue's speakers and words, with the cue's times (``,`` or ``.`` before the millis)."""
    path, text, session = sample.path, sample.text, sample.session
    lines = split_lines(text)
    if problem := unterminated_end(text, cue_parts=True):
        raise InputError(path, f"{CUT_OFF}: {problem}", where=f"line {len(lines)}")
    segments: list[Segment] = []
    cue: tuple[float, float, list[str]] | None = None
    for number, line in enumerate([*lines, ""], start=1):
        if (timing := CUE_TIME.match(line)) is not None:
            try:
                start, end = (parse_seconds(timing[k].replace(",", ".")) for k in ("start", "end"))
            except ValueError as error:
                raise InputError(path, str(error), where=f"line {number}") from error
            cue = (start, end, [])
        elif "-->" in line:  # no cue text holds it (WebVTT forbids it): a timing that is no time
            raise InputError(
                path,
                f"cue timing {line.strip()[:80]!r} is not 'start --> end' of HH:MM:SS,mmm times",
                where=f"line {number}",
                fix="correct the cue's times (NaN, Infinity and negative times are no times)",
            )
        elif cue is not None and line.strip():
            cue[2].append(line.strip())
        elif cue is not None:
            if not cue[2] and number > len(lines):
                raise InputError(
                    path,
                    f"{CUT_OFF}: the last cue has a time but no text",
                    where=f"line {number - 1}",
                )
            origin = f"{path}:line {number - 1}"
            for speaker, words in voices(path, " ".join(cue[2]), number - 1):
                segments.append(Segment(session, cue[0], cue[1], speaker, words, origin))
            cue = None
    return segments
