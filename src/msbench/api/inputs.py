"""What researchers hold, read into msbench's segments: meeteval's ``_maybe_load`` idea.

A reference or hypothesis may be

* a path (``str`` or ``os.PathLike``): any format of the io registry, told apart by content
  (:func:`msbench.io.read.read_output`; lhotse supervision manifests included);
* a list of SegLST-shaped dicts (``session_id``, ``speaker``, ``start_time``, ``end_time``,
  ``words``), or a meeteval ``SegLST`` (its ``segments``);
* lhotse supervisions: a ``SupervisionSet`` or a list of ``SupervisionSegment`` (``recording_id``
  is the session, ``start + duration`` the end, on their decimal texts);
* a pyannote ``Annotation``: speaker turns only, so DER alone (its ``uri`` is the session);
* msbench's own :class:`msbench.records.Segment` s.

Objects are recognised by their shape (no import of lhotse, meeteval or pyannote here), and
every entry is checked as the file readers check theirs (finite times, end not before start,
a speaker on each); a problem raises :class:`msbench.errors.InputError` naming the entry.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from msbench.errors import InputError
from msbench.io.collector import in_start_order
from msbench.io.read import by_session, read_output
from msbench.io.seglst import seglst_sessions
from msbench.records import Segment


@dataclass(frozen=True)
class Side:
    """One side as read: its segments (each session's in start order) and what it was read as
    (the ``read`` entry of ``msbench score``'s JSON)."""

    segments: list[Segment]
    read: dict[str, Any]


def read_side(value: Any, side: str, fmt: str | None = None, encoding: str | None = None) -> Side:
    """A reference or hypothesis in any of the shapes of the module docstring.

    >>> s = read_side([{"session_id": "m", "speaker": "A", "start_time": 0, "end_time": 1.5,
    ...                 "words": "hello"}], "reference")
    >>> s.segments[0].speaker, s.segments[0].end_time, s.read["format"]
    ('A', 1.5, 'seglst (list of dicts)')
    """
    if isinstance(value, str | os.PathLike):
        reading = read_output(os.fspath(value), fmt, encoding=encoding)
        return Side(reading.segments, reading.to_dict())
    if fmt is not None:
        raise InputError(f"<{side}>", f"--{side[:3]}-format {fmt!r} applies to files only")
    kind, entries = _entries(value, side)
    segments = _checked(entries, f"<{side}: {kind}>")
    speakers = len({s.speaker for s in segments})
    return Side(
        segments,
        {"format": kind, "chosen_by": "object", "speakers": speakers, "segments": len(segments)},
    )


def _entries(value: Any, side: str) -> tuple[str, list[Any]]:
    """``(what it is, its entries as SegLST dicts)``."""
    if hasattr(value, "itertracks") and hasattr(value, "uri"):  # pyannote.core.Annotation
        return "pyannote Annotation (speaker turns: DER only)", [
            {
                "session_id": value.uri or "session",
                "speaker": str(label),
                "start_time": turn.start,
                "end_time": turn.end,
                "words": None,
            }
            for turn, _, label in value.itertracks(yield_label=True)
        ]
    if hasattr(value, "segments") and type(value).__name__ == "SegLST":  # meeteval.io.SegLST
        return "meeteval SegLST", [dict(s) for s in value.segments]
    if isinstance(value, Mapping) or not isinstance(value, Iterable) or isinstance(value, bytes):
        raise InputError(
            f"<{side}>",
            f"a {type(value).__name__} is no reference or hypothesis msbench reads",
            fix="give a path, a list of SegLST dicts, a meeteval SegLST, lhotse supervisions, "
            "a pyannote Annotation (DER only) or msbench Segments",
        )
    items = list(value)
    if items and all(_is_supervision(item) for item in items):
        return "lhotse supervisions", [_supervision(item) for item in items]
    if all(isinstance(item, Segment) for item in items):
        return "msbench segments", [item.to_seglst() | {"words": item.words} for item in items]
    return "seglst (list of dicts)", items


def _is_supervision(item: Any) -> bool:
    return all(hasattr(item, key) for key in ("recording_id", "start", "duration", "speaker"))


def _supervision(item: Any) -> dict[str, Any]:
    from msbench.io.lhotse_manifest import exact_end

    start, duration = float(item.start), float(item.duration)
    return {
        "session_id": item.recording_id,
        "speaker": item.speaker,
        "start_time": start,
        "end_time": exact_end(start, duration),
        "words": getattr(item, "text", None),
    }


def _checked(entries: list[Any], where: str) -> list[Segment]:
    """The entries as segments, each session's in start order; the first problem raises."""
    if not entries:
        return []
    segments: list[Segment] = []
    sessions = seglst_sessions(entries, where)
    for session in sessions:
        if session.problems:
            raise InputError(where, session.problems[0])
        segments += in_start_order(list(session.segments))
    skipped = [note for s in sessions[:1] for note in s.notes if note.endswith("names no session)")]
    if skipped or not sessions:
        first = skipped[0] if skipped else f"{where}:segment 0: no session_id"
        raise InputError(
            where,
            first.removesuffix(": skipped (it names no session)"),
            fix="give every entry a session_id",
        )
    return [s for group in by_session(segments).values() for s in group]
