"""NOTSOFAR-1 ground-truth transcriptions: ``<meeting>/gt_transcription.json``.

The NOTSOFAR-1 benchmark datasets hold one folder per meeting
(``benchmark-datasets/<split>/<version>/MTG/MTG_30860/``) with
``gt_transcription.json``, a list of utterances::

    {"speaker_id": "Peter", "start_time": 12.05, "end_time": 15.2,
     "text": "...", "word_timing": [...], ...}

The session id is the meeting folder's name (``MTG_30860``) when the file is
called ``gt_transcription.json``, the file name otherwise. Times are seconds
(numbers or numeric strings); ``text`` (or ``words``) becomes the words. The
audio of the meeting's devices sits beside it (``sc_meetup_0/ch0.wav``, ...):
point the sheet's ``audio`` at one device, e.g.
``.../MTG/{session}/sc_plaza_0/ch0.wav``.
"""

from __future__ import annotations

from pathlib import Path

from msbench.io.collector import SessionCollector, json_entries, session_from_filename
from msbench.records import SessionAnnotation
from msbench.timeline import parse_seconds

SPEAKER_FIELD = "speaker_id"


def notsofar_session(path: str | Path) -> str:
    """``.../MTG_30860/gt_transcription.json`` -> ``MTG_30860``."""
    path = Path(path)
    return path.parent.name if path.name == "gt_transcription.json" else session_from_filename(path)


def read_notsofar(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    session = notsofar_session(path)
    collector = SessionCollector(str(path))
    collector.touch(session)
    for index, entry in json_entries(path, encoding, collector, session, "NOTSOFAR-1"):
        where = f"entry {index}"
        if SPEAKER_FIELD not in entry:
            collector.problem(session, f"{path}:{where}: no {SPEAKER_FIELD!r} field")
            continue
        try:
            start, end = parse_seconds(entry["start_time"]), parse_seconds(entry["end_time"])
        except (KeyError, TypeError, ValueError) as error:
            collector.problem(session, f"{path}:{where}: unreadable start_time/end_time ({error})")
            continue
        words = entry.get("text", entry.get("words"))
        collector.add(session, entry[SPEAKER_FIELD], start, end, where, words)
    return collector.sessions()
