"""CHiME-5/6 and DiPCo session transcription JSON.

One file per session (``S02.json``), a list of utterances::

    {"session_id": "S02", "speaker": "P05", "words": "...",
     "start_time": "0:00:10.52", "end_time": "0:00:12.04", "ref": "U02", ...}

Times are ``H:MM:SS.ss`` strings. DiPCo (and CHiME-5) give per-device times as a
mapping (``{"close-talk": "...", "U01": "..."}``): the ``close-talk`` entry is
used when present, otherwise the first device in sorted order. The session id
comes from each entry's ``session_id`` or, failing that, the file name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msbench.adapters.common import SessionCollector, session_from_filename
from msbench.errors import InputError
from msbench.records import SessionAnnotation
from msbench.textio import read_json

REFERENCE_DEVICE = "close-talk"


def parse_clock(value: Any) -> float:
    """``"1:02:03.5"`` -> 3723.5 s; numbers pass through; per-device maps pick one device."""
    if isinstance(value, dict):
        key = REFERENCE_DEVICE if REFERENCE_DEVICE in value else sorted(value)[0]
        return parse_clock(value[key])
    if isinstance(value, (int, float)):
        return float(value)
    parts = str(value).split(":")
    seconds = 0.0
    for part in parts:
        seconds = seconds * 60 + float(part)
    return seconds


def read_chime(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    entries = read_json(path, encoding)
    if not isinstance(entries, list):
        raise InputError(path, "expected a JSON list of utterances (CHiME-6 / DiPCo layout)")
    collector = SessionCollector(str(path))
    default_session = session_from_filename(path)
    collector.touch(default_session) if not entries else None
    for index, entry in enumerate(entries):
        where = f"entry {index}"
        session = str(entry.get("session_id") or default_session)
        try:
            start = parse_clock(entry["start_time"])
            end = parse_clock(entry["end_time"])
        except (KeyError, ValueError, IndexError) as error:
            collector.problem(session, f"{path}:{where}: unreadable start_time/end_time ({error})")
            continue
        collector.add(session, str(entry.get("speaker", "")), start, end, where, entry.get("words"))
    return collector.sessions()
