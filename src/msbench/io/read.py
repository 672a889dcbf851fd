"""References and hypotheses as people have them, read into :class:`msbench.records.Segment`:
the one way in for ``msbench score``, ``evaluate``, the review site and the exports.

The format is the one asked for (``--ref-format`` / ``--hyp-format``, a system's ``format:``),
else the one a file name's ending says (:data:`SUFFIX_FORMATS`; JSON is told apart by content),
else the first of the registry (:data:`msbench.io.registry.REGISTRY`, in its order) whose
detector recognises the content. :func:`read_output` says what it read (the format, how it was
chosen, speakers and segments); a file of no known shape is refused with what was tried.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from msbench.errors import InputError
from msbench.io import registry
from msbench.io.collector import in_start_order
from msbench.io.json_outputs import parsed
from msbench.io.reading_notes import collected
from msbench.io.registry import SCORING_FORMATS, FileFormat, closest_formats
from msbench.io.sample import Sample
from msbench.records import Segment
from msbench.textio import read_text

FORMATS = SCORING_FORMATS
FORMAT_FIX = "check the file, or pass --ref-format/--hyp-format"


def suffix_formats() -> dict[str, str]:
    """A file name's ending -> the format it says (JSON is told apart by its content); read from
    the registry when asked, so a format added there is known here at once."""
    return {
        suffix: f.name
        for f in registry.REGISTRY
        if f.scoring
        for suffix in f.suffixes
        if suffix != ".json"
    }


SUFFIX_FORMATS = suffix_formats()


@dataclass
class Reading:
    """What :func:`read_output` read: ``format``, ``chosen_by`` (``asked``, ``file name`` or
    ``content``), the segments in start order within each session, and notes to say."""

    path: str
    format: str
    chosen_by: str
    segments: list[Segment] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def speakers(self) -> int:
        return len({s.speaker for s in self.segments})

    def to_dict(self) -> dict[str, object]:
        read: dict[str, object] = {
            "format": self.format,
            "chosen_by": self.chosen_by,
            "speakers": self.speakers,
            "segments": len(self.segments),
        }
        return {**read, "notes": list(self.notes)} if self.notes else read

    def summary(self) -> str:
        """``read as vibevoice (by content; 3 speakers, 42 segments)``."""
        return (
            f"read as {self.format} (by {self.chosen_by}; {self.speakers} speakers, "
            f"{len(self.segments)} segments)"
        )


def detect_format(text: str, path: str | Path = "") -> str:
    """The first registry format whose detector recognises the text (see the module docstring)."""
    return _detected(Sample(path, text, Path(path).stem if path else ""))


def _detected(sample: Sample) -> str:
    """:func:`detect_format` on a sample the reader then reads (its content parsed once)."""
    found = _detect(sample)
    if found:
        return found
    if not sample.fields:
        raise InputError(sample.path, "is empty: no segment to score", fix="check the file")
    raise InputError(
        sample.path,
        "cannot tell the format",
        fix=f"pass --ref-format/--hyp-format, one of {', '.join(FORMATS)}",
    )


def _by_name_or_content(sample: Sample) -> tuple[str, str]:
    """The file name's format, unless the content is of a distinctive format that names itself
    (a service's JSON, a VibeVoice or MOSS answer saved as ``.txt``)."""
    named = suffix_formats().get(Path(sample.path).suffix.lower())
    if named is None:
        return _detected(sample), "content"
    detected = _detect(sample)
    if detected and detected != named and registry.BY_NAME[detected].distinctive:
        return detected, "content"
    return named, "file name"


def _detect(sample: Sample) -> str | None:
    return next(
        (f.name for f in registry.REGISTRY if f.scoring and f.detect and f.detect(sample)), None
    )


def read_output(
    path: str | Path,
    fmt: str | None = None,
    session: str | None = None,
    pattern: str | None = None,
    encoding: str | None = None,
) -> Reading:
    """Every segment of a file, any format, and what it was read as; problems raise InputError.

    Segments keep the file's order (each session's in start order, equal starts in the file's
    order); zero-length segments are kept with their words. ``encoding``: a legacy codec tried
    where UTF-8 fails (:mod:`msbench.textio`). An empty file is read as no segment.
    """
    text = _decoded(path, encoding)
    chosen = "asked" if fmt else ""
    if not text.strip(" \ufeff\n\r\t"):
        return Reading(str(path), fmt or "empty", chosen or "content")
    sample = Sample(path, text, session or Path(path).stem, pattern, encoding)
    if not fmt:
        fmt, chosen = _by_name_or_content(sample)
    known = registry.BY_NAME.get(fmt)
    if known is None or not known.scoring:
        raise InputError(path, f"unknown format {fmt!r}", fix=closest_formats(fmt, FORMATS))
    with collected() as notes:
        sessions = by_session(_segments(known, sample))
    ordered = [s for group in sessions.values() for s in in_start_order(group)]
    return Reading(str(path), fmt, chosen, ordered, notes)


def read_segments(
    path: str | Path,
    fmt: str | None = None,
    session: str | None = None,
    pattern: str | None = None,
    encoding: str | None = None,
) -> list[Segment]:
    """The segments of :func:`read_output`."""
    return read_output(path, fmt, session, pattern, encoding).segments


def _decoded(path: str | Path, encoding: str | None) -> str:
    """The file's text. A binary file (NUL bytes, or mostly control bytes) is said to be no
    system output or reference; text with a byte UTF-8 cannot decode keeps the decoder's message
    (the line, the byte, its offset, and ``--encoding``)."""
    try:
        return read_text(path, encoding)
    except InputError as error:
        if "cannot decode" not in str(error) or not _binary(path):
            raise
        raise InputError(
            path,
            "is binary (NUL or control bytes), not text: not a reference or system output "
            "msbench reads",
            fix=f"score a text file in one of: {', '.join(FORMATS)}",
        ) from error


def _binary(path: str | Path) -> bool:
    """The file's first 8 KiB hold a NUL byte, or more than 10 % control bytes (not tab, line
    feed, carriage return, form feed or escape): no text file in any encoding."""
    with open(path, "rb") as handle:
        head = handle.read(8192)
    control = sum(b < 32 and b not in (9, 10, 12, 13, 27) for b in head)
    return b"\0" in head or control > len(head) / 10


def _segments(fmt: FileFormat, sample: Sample) -> list[Segment]:
    if fmt.segments is not None:
        return fmt.segments(sample)
    if fmt.name == "seglst":
        _refuse_unknown_json(sample)
    assert fmt.annotations is not None  # noqa: S101 - scoring formats have one of the two
    segments: list[Segment] = []
    annotations = fmt.annotations(sample.path, sample.encoding)
    for annotation in annotations:
        if annotation.problems:
            raise InputError(sample.path, annotation.problems[0])
        segments += list(annotation.segments)
    if not annotations:
        raise InputError(
            sample.path, nothing_read(sample.text, fmt.name, sample.path), fix=FORMAT_FIX
        )
    return segments


def _refuse_unknown_json(sample: Sample) -> None:
    """SegLST is a list; an unclosed one is cut off; a JSON object of no known shape is refused
    with the formats tried and the keys each looked for."""
    parsed(sample)  # an unclosed or invalid document: its error, named
    if isinstance(sample.data, dict):
        tried = "; ".join(f"{f.name}: {f.looks_for}" for f in registry.REGISTRY if f.looks_for)
        keys = ", ".join(map(repr, list(sample.data)[:8]))
        raise InputError(
            sample.path,
            f"a JSON object of no known shape (its keys: {keys}); tried {tried}",
            fix="pass --hyp-format if it is one of these, or convert it to SegLST",
        )


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
