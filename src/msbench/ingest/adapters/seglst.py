"""meeteval SegLST JSON: a list of ``{session_id, speaker, start_time, end_time, words}``.

Times are seconds (numbers, or numeric strings read on their decimal text;
a boolean is not a time). One file may hold many sessions; an entry that is
not an object or has no ``session_id`` is skipped with a note on the file's
sessions (:class:`~msbench.ingest.adapters.common.SessionCollector`).
"""

from __future__ import annotations

from pathlib import Path

from msbench.errors import InputError
from msbench.ingest.adapters.common import SessionCollector, session_from_filename
from msbench.records import SessionAnnotation
from msbench.textio import read_json
from msbench.timeline import parse_seconds


def read_seglst(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    entries = read_json(path, encoding)
    if not isinstance(entries, list):
        raise InputError(path, "expected a JSON list of SegLST segments")
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
