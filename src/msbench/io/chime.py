"""CHiME-5/6/7/8 and DiPCo session transcription JSON.

One file per session (``S02.json``), a list of utterances::

    {"session_id": "S02", "speaker": "P05", "words": "...",
     "start_time": "0:00:10.52", "end_time": "0:00:12.04", "ref": "U02", ...}

Field names are the corpora's own: ``speaker``, ``start_time``, ``end_time``,
``words``, ``session_id``. Times are ``H:MM:SS.ss`` clock strings (CHiME-5/6,
DiPCo) or seconds as numbers or numeric strings (CHiME-7/8 DASR); both are
parsed on their decimal text (:func:`msbench.timeline.parse_seconds`). DiPCo
(and CHiME-5) give per-device times as a mapping
(``{"close-talk": "...", "U01": "..."}``): the ``close-talk`` entry is used
when present, otherwise the first device in sorted order. The session id comes
from each entry's ``session_id`` or, failing that, the file name. An entry
without a ``speaker`` field, or one that is not an object, is a problem of its
session naming the entry and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msbench.io.collector import SessionCollector, json_entries, session_from_filename
from msbench.records import SessionAnnotation
from msbench.timeline import parse_seconds

REFERENCE_DEVICE = "close-talk"
SPEAKER_FIELD = "speaker"


def parse_clock(value: Any) -> float:
    """``"1:02:03.5"`` -> 3723.5 s; numbers pass through; per-device maps pick one device.

    >>> parse_clock({"U01": "0:00:01.02", "close-talk": "0:00:01.00"})
    1.0
    """
    if isinstance(value, dict):
        key = REFERENCE_DEVICE if REFERENCE_DEVICE in value else sorted(value)[0]
        return parse_clock(value[key])
    return parse_seconds(value)


def read_chime(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    collector = SessionCollector(str(path))
    default_session = session_from_filename(path)
    found = False
    for index, entry in json_entries(path, encoding, collector, default_session, "CHiME / DiPCo"):
        found = True
        where = f"entry {index}"
        session = str(entry.get("session_id") or default_session)
        if SPEAKER_FIELD not in entry:
            collector.problem(session, f"{path}:{where}: no {SPEAKER_FIELD!r} field")
            continue
        try:
            start = parse_clock(entry["start_time"])
            end = parse_clock(entry["end_time"])
        except (KeyError, ValueError, IndexError, ArithmeticError) as error:
            collector.problem(session, f"{path}:{where}: unreadable start_time/end_time ({error})")
            continue
        collector.add(session, entry[SPEAKER_FIELD], start, end, where, entry.get("words"))
    if not found:
        collector.touch(default_session)
    return collector.sessions()
