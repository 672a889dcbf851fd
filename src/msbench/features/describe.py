"""``msbench describe``: a corpus inspector over annotation files, without audio.

Per session: the duration (from ``--uem``: the total length of its scored
spans, their union; else the annotation's own length, TextGrid ``xmax`` or
lhotse duration; else the last segment end), the interaction features as the
workflow computes them (annotation cropped to the UEM spans), what the
workflow notes (zero-length segments, kept for their words; excluded
regions, aligner tiers, crops) and what would reject the session (its
problems, its UEM's problems).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from msbench.errors import InputError
from msbench.features.interaction import interaction_features
from msbench.ingest.adapters import detect_format, read_annotation_file, read_uem_spans
from msbench.ingest.region import crop_to_spans
from msbench.io.uem import UemTable, scored_length
from msbench.records import SessionAnnotation

#: File name endings taken from a folder given to ``describe``.
ANNOTATION_SUFFIXES = (".rttm", ".stm", ".textgrid", ".json", ".jsonl", ".jsonl.gz")


def annotation_paths(paths: Iterable[str | Path]) -> list[Path]:
    """Files as given; a folder gives every annotation file below it, sorted."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            inside = sorted(
                p for p in path.rglob("*") if p.name.lower().endswith(ANNOTATION_SUFFIXES)
            )
            if not inside:
                raise InputError(
                    path,
                    "is a folder with no annotation file in it",
                    fix=f"give files ending in {', '.join(ANNOTATION_SUFFIXES)}",
                )
            found += inside
        elif not path.exists():
            raise InputError(path, "no such file")
        else:
            found.append(path)
    return found


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6)


def describe_session(session: SessionAnnotation, uem: UemTable | None = None) -> dict[str, Any]:
    segments = session.segments
    notes = [
        *session.notes,
        *(f"{z}: kept for its words, no speech time" for z in session.zero_length),
    ]
    problems = list(session.problems)
    spans = uem.spans.get(session.session_id) if uem is not None else None
    if uem is not None:
        notes += uem.notes.get(session.session_id, [])
        problems += uem.problems.get(session.session_id, [])
    if spans is not None:
        segments, cropped = crop_to_spans(segments, spans)
        notes += cropped
        duration = scored_length(spans)
    else:
        last_end = max((s.end_time for s in segments), default=0.0)
        duration = session.duration or last_end
    features = interaction_features(segments, duration, spans)
    return {
        "session_id": session.session_id,
        "file": session.file,
        "duration_seconds": round(duration, 6),
        "num_speakers": features.num_speakers,
        "overlap_ratio": _round(features.overlap_ratio),
        "overlap_ratio_of_speech": _round(features.overlap_ratio_of_speech),
        "speaker_switch_q25": _round(features.speaker_switch_q25),
        "speech_duration_seconds": _round(features.speech_duration),
        "overlap_duration_seconds": _round(features.overlap_duration),
        "max_concurrent_speakers": features.max_concurrent_speakers,
        "num_speaker_switches": features.num_speaker_switches,
        "num_segments": sum(s.end_time > s.start_time for s in segments),
        "notes": notes,
        "problems": problems,
        "rejected": bool(problems) or not any(s.end_time > s.start_time for s in segments),
    }


def describe_file(
    path: str | Path, fmt: str | None = None, uem: str | None = None, encoding: str | None = None
) -> list[dict[str, Any]]:
    """One dict per session of one file; a file that yields no session is an error."""
    table = read_uem_spans(uem, encoding) if uem else None
    if table is not None and table.unreadable:
        raise table.unreadable[0]
    sessions = read_annotation_file(path, fmt, encoding)
    if not sessions or all(not s.segments and not s.problems for s in sessions):
        used = fmt or detect_format(path)
        raise InputError(
            path,
            f"parsed as {used!r} it holds no speech segment",
            fix="check the file, or pass --format with its real format",
        )
    return [describe_session(s, table) for s in sessions]


def describe_paths(
    paths: Sequence[str | Path],
    fmt: str | None = None,
    uem: str | None = None,
    encoding: str | None = None,
) -> list[dict[str, Any]]:
    return [
        row for path in annotation_paths(paths) for row in describe_file(path, fmt, uem, encoding)
    ]


def summary_table(rows: Sequence[dict[str, Any]]) -> str:
    """A markdown table, one line per session, then the totals."""
    from msbench import columns
    from msbench.tables import markdown_table

    hours = sum(row["duration_seconds"] for row in rows) / 3600
    rejected = sum(1 for row in rows if row["rejected"])
    totals = f"{len(rows)} sessions, {hours:.2f} h, {rejected} the workflow would reject"
    return markdown_table(rows, columns.SUMMARY_COLUMNS) + "\n" + totals
