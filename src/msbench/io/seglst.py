"""meeteval SegLST JSON: a list of ``{session_id, speaker, start_time, end_time, words}``.

Times are seconds (numbers, or numeric strings read on their decimal text;
a boolean is not a time). One file may hold many sessions; an entry that is
not an object or has no ``session_id`` is skipped with a note on the file's
sessions (:class:`~msbench.io.collector.SessionCollector`). Written by :func:`write`.

Detected as the JSON document that is none of the systems' own (the registry tries those
first); a JSON object of no known shape is refused with what was tried
(:func:`msbench.io.read.read_output`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from msbench.errors import InputError
from msbench.io.collector import SessionCollector, session_from_filename
from msbench.io.sample import NOT_JSON, Sample
from msbench.io.text import TIMESTAMPED_LINE
from msbench.records import SessionAnnotation
from msbench.textio import read_json
from msbench.timeline import parse_seconds


def read_seglst(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    entries = read_json(path, encoding)
    if not isinstance(entries, list):
        raise InputError(path, "expected a JSON list of SegLST segments")
    return seglst_sessions(entries, path)


def seglst_sessions(entries: list[Any], path: str | Path) -> list[SessionAnnotation]:
    """SegLST entries (dicts as read from JSON, or as a Python caller holds them) into sessions,
    each checked as every reader checks it; ``path`` names where they came from."""
    collector = SessionCollector(str(path))
    if not entries:
        collector.touch(session_from_filename(path))
    for index, entry in enumerate(entries):
        where = f"segment {index}"
        named = entry.get("session_id") if isinstance(entry, dict) else None
        if named is None or isinstance(named, bool) or not str(named).strip():
            collector.skip(f"{path}:{where}: no session_id")
            continue
        session = str(named)
        try:
            start, end = parse_seconds(entry["start_time"]), parse_seconds(entry["end_time"])
        except (KeyError, ValueError) as error:
            collector.problem(
                session, f"{path}:{where}: start_time/end_time missing or not numbers ({error})"
            )
            continue
        collector.add(session, entry.get("speaker"), start, end, where, entry.get("words"))
    return collector.sessions()


def detect(sample: Sample) -> bool:
    """Any JSON document no system format claimed (tried last among them: an object of no known
    shape is then refused with what was tried), or a text that starts as one and does not parse
    (the reader names the line)."""
    if sample.data is not NOT_JSON:
        return True
    first_line = sample.stripped.split("\n", 1)[0]
    return (
        sample.data is NOT_JSON
        and sample.stripped.startswith(("[", "{"))
        and not TIMESTAMPED_LINE.match(first_line)
    )


def write(segments: Iterable[Mapping[str, Any]]) -> str:
    """meeteval's SegLST: a JSON list of the segments, keys as given."""
    return json.dumps([dict(s) for s in segments], ensure_ascii=False, indent=2) + "\n"
