"""References and hypotheses as people have them, read into :class:`msbench.records.Segment`.

Formats, detected from the content (``--ref-format`` / ``--hyp-format`` force one):

``stm``       ``<file> <chnl> <speaker> <start> <end> [<label>] words``
``seglst``    meeteval SegLST JSON (``session_id, speaker, start_time, end_time, words``)
``rttm``      ``SPEAKER <file> <chnl> <tbeg> <tdur> ... <name> ...``: speaker times, no words
``ctm``       ``<file> <speaker> <start> <duration> <word>`` (a speaker column; one word a line)
``textgrid``  Praat TextGrid, one tier per speaker (references)
``vibevoice``, ``whisperx``, ``assemblyai``, ``deepgram``, ``aws-transcribe``,
``speechmatics``, ``google-stt``: the JSON these systems and services write
              (:mod:`msbench.scoring.system_outputs`), told apart by their keys
``srt``, ``webvtt``: subtitles whose cues name their speaker
``text``      timestamped text as speech LLMs write it, one line per turn:
              ``[00:01.20 - 00:04.56] Speaker 1: text`` and close variants (``-->``,
              ``hh:mm:ss``, ``SPEAKER_01``, ``S1``, ``<spk1>``); a line that does not
              parse is an error naming the line
"""

from __future__ import annotations

import re
from pathlib import Path

from msbench.errors import InputError
from msbench.file_formats import REGISTRY, SCORING_FORMATS, closest_formats
from msbench.ingest.adapters.common import in_start_order
from msbench.records import Segment
from msbench.scoring.system_outputs import (
    CUT_OFF,
    detect_json,
    detect_subtitles,
    json_problem,
    json_readers,
    read_json_output,
    read_subtitles,
    unterminated_end,
)
from msbench.textio import read_text, split_lines
from msbench.timeline import exact_sum, parse_seconds

FORMATS = SCORING_FORMATS  # the registry's (msbench.file_formats)

_CLOCK = r"(?:\d+:)?(?:\d+:)?\d+(?:\.\d+)?"
#: ``[start - end] speaker: text``; the speaker is whatever precedes the first colon.
TIMESTAMPED_LINE = re.compile(
    rf"^\s*\[\s*(?P<start>{_CLOCK})\s*(?:-|–|-->|to)\s*(?P<end>{_CLOCK})\s*\]\s*"
    r"(?P<speaker>[^:：]{1,40}?)\s*[:：]\s*(?P<words>.*)$"
)


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def detect_format(text: str, path: str | Path = "") -> str:
    """The format of a file's text (see the module docstring)."""
    stripped = text.lstrip("\ufeff \n\t")
    if stripped.startswith(("[", "{")) and not TIMESTAMPED_LINE.match(stripped.splitlines()[0]):
        return _json_format(stripped)
    if subtitles := detect_subtitles(text):
        return subtitles
    if 'Object class = "TextGrid"' in text[:300] or str(path).lower().endswith(".textgrid"):
        return "textgrid"
    lines = [
        line.split() for line in split_lines(text) if line.strip() and not line.startswith(";;")
    ]
    if not lines:
        raise InputError(path, "is empty: no segment to score", fix="check the file")
    if all(f[0] == "SPEAKER" for f in lines):
        return "rttm"
    if sum(bool(TIMESTAMPED_LINE.match(" ".join(f))) for f in lines) > len(lines) / 2:
        return "text"
    ctm = sum(
        len(f) in (5, 6) and _numeric(f[2]) and _numeric(f[3]) and not _numeric(f[4]) for f in lines
    )
    stm = sum(len(f) >= 5 and _numeric(f[3]) and _numeric(f[4]) for f in lines)
    if ctm > stm:
        return "ctm"
    if stm:
        return "stm"
    raise InputError(
        path,
        "cannot tell the format",
        fix=f"pass --ref-format/--hyp-format, one of {', '.join(FORMATS)}",
    )


def _json_format(text: str) -> str:
    """A system output's own JSON (VibeVoice, WhisperX, a service's), else SegLST."""
    import json

    try:
        return detect_json(json.loads(text)) or "seglst"
    except json.JSONDecodeError:
        return "seglst"  # the SegLST reader names the line


def _check_closed(path: str | Path, text: str) -> None:
    """A SegLST output cut off before its list closes is incomplete, not invalid."""
    import json

    try:
        json.loads(text)
    except json.JSONDecodeError as error:
        raise json_problem(path, text, error) from error


def read_ctm(path: str | Path, text: str) -> list[Segment]:
    """``<file> <speaker> <start> <duration> <word> [<conf>]``, one word a line, in file order.

    The second field names the speaker stream (sclite's channel field, as in
    SCTK's ``mand_hyp.ctm``, where channel 1 and 2 are the two sides).
    """
    segments = []
    for number, line in enumerate(split_lines(text), start=1):
        fields = line.split()
        if not fields or line.startswith(";;"):
            continue
        if len(fields) < 5:
            raise InputError(
                path,
                f"CTM line has {len(fields)} fields",
                where=f"line {number}",
                fix="<file> <speaker> <start> <duration> <word>",
            )
        try:
            start, duration = parse_seconds(fields[2]), parse_seconds(fields[3])
            end = exact_sum(fields[2], fields[3]) if duration >= 0 else start + duration
        except (ValueError, ArithmeticError) as error:
            raise InputError(
                path,
                f"CTM start/duration {fields[2]!r} {fields[3]!r} are not finite numbers",
                where=f"line {number}",
            ) from error
        segments.append(
            Segment(fields[0], start, end, fields[1], fields[4], f"{path}:line {number}")
        )
    return segments


def _in_start_order(segments: list[Segment]) -> list[Segment]:
    """Each session's segments by start time, stably (equal starts keep the file's order)."""
    return [s for group in by_session(segments).values() for s in in_start_order(group)]


def read_timestamped_text(
    path: str | Path, text: str, session: str, pattern: str | None = None
) -> list[Segment]:
    """``[start - end] speaker: words`` lines; blank lines are skipped, anything else fails.

    ``pattern`` replaces the line pattern: a regular expression with the named
    groups ``start``, ``end``, ``speaker`` and ``words`` (a system's ``text_pattern``).
    """
    line_pattern = re.compile(pattern) if pattern else TIMESTAMPED_LINE
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
                session,
                start,
                end,
                match["speaker"].strip(),
                match["words"].strip(),
                f"{path}:line {number}",
            )
        )
    return segments


#: A system output's file name ending says its format (before any content detection); JSON is
#: told apart by its content.
SUFFIX_FORMATS = {
    suffix: f.name for f in REGISTRY if f.scoring for suffix in f.suffixes if suffix != ".json"
}


def read_segments(
    path: str | Path,
    fmt: str | None = None,
    session: str | None = None,
    pattern: str | None = None,
    encoding: str | None = None,
) -> list[Segment]:
    """Every segment of a file, any format; problems in it raise InputError.

    The format is ``fmt``, else the one the file name's ending says
    (:data:`SUFFIX_FORMATS`), else detected from the content. Segments keep
    the file's order (each session's in start order, equal starts in the
    file's order); zero-length segments are kept with their words. ``encoding``:
    a legacy codec tried where UTF-8 fails (:mod:`msbench.textio`).
    """
    from msbench.ingest.adapters import read_annotation_file

    text = read_text(path, encoding)
    if not text.strip(" \ufeff\n\r\t"):
        return []  # an empty file: a system that said nothing (the score's notes say so)
    fmt = fmt or SUFFIX_FORMATS.get(Path(path).suffix.lower()) or detect_format(text, path)
    default_session = session or Path(path).stem
    if fmt == "ctm":
        return _in_start_order(read_ctm(path, text))
    if fmt == "text":
        return _in_start_order(read_timestamped_text(path, text, default_session, pattern))
    if fmt in json_readers():
        return _in_start_order(read_json_output(path, text, fmt, default_session))
    if fmt == "seglst":
        _check_closed(path, text)
    if fmt in ("srt", "webvtt"):
        return _in_start_order(read_subtitles(path, text, default_session))
    if fmt not in FORMATS:
        raise InputError(path, f"unknown format {fmt!r}", fix=closest_formats(fmt, FORMATS))
    segments = []
    annotations = read_annotation_file(path, fmt, encoding)
    for annotation in annotations:
        if annotation.problems:
            raise InputError(path, annotation.problems[0])
        segments += list(annotation.segments)
    if not annotations:
        raise InputError(path, nothing_read(text, fmt, path), fix=FORMAT_FIX)
    return segments


FORMAT_FIX = "check the file, or pass --ref-format/--hyp-format"


def nothing_read(text: str, fmt: str, path: str | Path) -> str:
    """Why a non-empty file gave no segment as ``fmt``: what its content looks like instead."""
    try:
        looks = detect_format(text)
    except InputError:
        looks = "no known format"
    return (
        f"holds text but no {fmt} segment (read as {fmt}; its content looks like {looks})"
        if looks != fmt
        else f"holds text but no {fmt} segment"
    )


def by_session(segments: list[Segment]) -> dict[str, list[Segment]]:
    sessions: dict[str, list[Segment]] = {}
    for segment in segments:
        sessions.setdefault(segment.session_id, []).append(segment)
    return sessions
