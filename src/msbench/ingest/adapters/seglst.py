"""meeteval SegLST JSON: a list of ``{session_id, speaker, start_time, end_time, words}``.

Times are seconds (numbers). One file may hold many sessions.
"""

from __future__ import annotations

from pathlib import Path

from msbench.errors import InputError
from msbench.ingest.adapters.common import SessionCollector, session_from_filename
from msbench.records import SessionAnnotation
from msbench.textio import read_json


def read_seglst(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    entries = read_json(path, encoding)
    if not isinstance(entries, list):
        raise InputError(path, "expected a JSON list of SegLST segments")
    collector = SessionCollector(str(path))
    if not entries:
        collector.touch(session_from_filename(path))
    for index, entry in enumerate(entries):
        where = f"segment {index}"
        if not isinstance(entry, dict) or "session_id" not in entry:
            raise InputError(path, "segment without session_id", where=where)
        session = str(entry["session_id"])
        try:
            start, end = float(entry["start_time"]), float(entry["end_time"])
        except (KeyError, TypeError, ValueError):
            collector.problem(
                session, f"{path}:{where}: start_time/end_time missing or not numbers"
            )
            continue
        collector.add(session, str(entry.get("speaker", "")), start, end, where, entry.get("words"))
    return collector.sessions()
