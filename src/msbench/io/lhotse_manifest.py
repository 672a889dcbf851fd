"""lhotse manifests: a supervisions manifest, plus the recordings manifest for audio paths.

Users run lhotse's recipes (``lhotse prepare aishell4 ...``) and point msbench at
``*_supervisions_*.jsonl.gz`` (annotations, and a reference or hypothesis for ``msbench
score``) and ``*_recordings_*.jsonl.gz`` (audio). Both are JSON Lines (gzipped or not), one
object a line, as lhotse's ``to_dict`` writes them; msbench reads them itself, so reading needs
no lhotse (and no torch): each line is checked for the fields lhotse's ``from_dict`` needs
(supervision: ``id``, ``recording_id``, ``start``, ``duration`` numbers, optional ``speaker``
and ``text`` strings; recording: ``id``, ``sources``, ``duration``), and a line that lacks one
is named. The tests read manifests that lhotse itself wrote. A supervision's ``recording_id``
is the session; ``start``/``duration`` are seconds; the recording's first ``file`` source is
the audio path and its ``duration`` the annotation's duration.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from msbench.io.collector import SessionCollector
from msbench.io.sample import Sample
from msbench.records import SessionAnnotation
from msbench.textio import read_text, split_lines
from msbench.timeline import exact_sum


def read_lhotse(
    supervisions: str | Path, encoding: str | None = None, recordings: str | Path | None = None
) -> list[SessionAnnotation]:
    """Sessions from a supervisions manifest (and a recordings manifest): a bad line of either
    rejects only the recording it names (a line naming none is skipped, and said). lhotse writes
    UTF-8; ``encoding`` is tried where that fails, as for every reader."""
    collector = SessionCollector(str(supervisions))
    if recordings:
        for index, line in enumerate(split_lines(read_text(recordings, encoding)), start=1):
            if line.strip():
                _add_recording(collector, recordings, index, line)
    known = set(collector.durations) if recordings else None
    for index, line in enumerate(split_lines(read_text(supervisions, encoding)), start=1):
        if line.strip():
            _add_supervision(collector, supervisions, index, line, known, recordings)
    return collector.sessions()


def _add_recording(collector: SessionCollector, path: str | Path, index: int, line: str) -> None:
    """One recordings-manifest line: its duration and audio file, or a problem of its id."""
    import json

    try:
        entry = json.loads(line)
        recording_id, duration, sources = _recording_fields(entry)
    except json.JSONDecodeError as error:
        collector.skip(f"{path}:line {index}: invalid JSON ({error.msg})")
        return
    except (KeyError, TypeError, ValueError) as error:
        message = f"{path}:line {index}: not a lhotse recording ({type(error).__name__}: {error})"
        named = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(named, str) and named:
            collector.problem(named, message)
            collector.durations.setdefault(named, math.nan)
        else:
            collector.skip(message)
        return
    if recording_id in collector.durations:
        collector.problem(recording_id, f"{path}:line {index}: recording id appears twice")
    collector.touch(recording_id)
    collector.durations[recording_id] = duration
    files = [source for source in sources if source["type"] == "file"]
    if files:
        collector.audio_paths[recording_id] = str(files[0]["source"])
    elif sources:
        kinds = sorted({str(source["type"]) for source in sources})
        collector.note(
            recording_id,
            f"{path}:line {index}: audio source of type {', '.join(kinds)} "
            f"({sources[0]['source']!r}); msbench reads audio files only: "
            "write the audio to files and set `audio` in the dataset sheet",
        )


def _recording_fields(entry: object) -> tuple[str, float, list[dict[str, object]]]:
    """A recording's id, duration and sources, as lhotse's ``Recording.from_dict`` needs them.

    >>> _recording_fields({"id": "R", "duration": 2, "sources": [{"type": "file", "source": "a"}]})
    ('R', 2.0, [{'type': 'file', 'source': 'a'}])
    >>> _recording_fields({"id": "R", "sources": []})
    Traceback (most recent call last):
    KeyError: 'duration'
    """
    if not isinstance(entry, dict):
        raise TypeError(f"a line is a JSON object, not {type(entry).__name__}")
    recording_id, duration, sources = entry["id"], entry["duration"], entry["sources"]
    if not isinstance(recording_id, str) or not recording_id:
        raise TypeError(f"id {recording_id!r} is not a non-empty string")
    if not isinstance(sources, list) or not all(
        isinstance(s, dict) and "type" in s and "source" in s for s in sources
    ):
        raise TypeError("sources is not a list of {type, source} objects")
    return recording_id, _seconds("duration", duration), sources


def _seconds(name: str, value: object) -> float:
    """A number of seconds as read (a string, a boolean or null is refused, naming the key)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"{name} {value!r} is not a number")
    return float(value)


def _add_supervision(
    collector: SessionCollector,
    path: str | Path,
    index: int,
    line: str,
    known: set[str] | None,
    recordings: str | Path | None,
) -> None:
    """One supervision line: a bad line rejects only the recording it names (if it names one)."""
    import json

    try:
        entry = json.loads(line)
    except json.JSONDecodeError as error:
        collector.skip(f"{path}:line {index}: invalid JSON ({error.msg})")
        return
    try:
        supervision = supervision_fields(entry)
    except (KeyError, TypeError, ValueError) as error:
        message = f"{path}:line {index}: not a lhotse supervision ({type(error).__name__}: {error})"
        named = entry.get("recording_id") if isinstance(entry, dict) else None
        if not named or isinstance(named, bool):
            collector.skip(message)
        else:
            collector.problem(str(named), message)
        return
    where = f"line {index} (supervision {supervision['id']!r})"
    session = supervision["recording_id"]
    if known is not None and session not in known:
        collector.problem(
            session,
            f"{path}:{where}: recording {session!r} is not in the recordings "
            f"manifest {recordings} (add it there, or fix the supervision's recording_id)",
        )
        return
    start, duration = supervision["start"], supervision["duration"]
    speaker = supervision["speaker"]
    collector.add(
        session, speaker or "", start, exact_end(start, duration), where, supervision["text"]
    )


def supervision_fields(entry: object) -> dict[str, Any]:
    """A supervision's fields as lhotse's ``SupervisionSegment.from_dict`` needs them: ``id`` and
    ``recording_id`` strings, ``start`` and ``duration`` numbers, ``speaker`` and ``text``
    strings or absent (null).

    >>> supervision_fields({"id": "s", "recording_id": "R", "start": 1, "duration": 0.5})
    {'id': 's', 'recording_id': 'R', 'start': 1.0, 'duration': 0.5, 'speaker': None, 'text': None}
    >>> supervision_fields({"id": "x", "recording_id": "s2", "start": "soon"})
    Traceback (most recent call last):
    TypeError: start 'soon' is not a number
    """
    if not isinstance(entry, dict):
        raise TypeError(f"a line is a JSON object, not {type(entry).__name__}")
    fields: dict[str, Any] = {}
    for key in ("id", "recording_id"):
        value = entry[key]
        if not isinstance(value, str) or not value:
            raise TypeError(f"{key} {value!r} is not a non-empty string")
        fields[key] = value
    fields["start"] = _seconds("start", entry["start"])
    fields["duration"] = _seconds("duration", entry["duration"])
    for key in ("speaker", "text"):
        value = entry.get(key)
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{key} {value!r} is not a string")
        fields[key] = value
    return fields


def detect(sample: Sample) -> bool:
    """JSON Lines whose first object is a lhotse supervision (``recording_id``, ``start``,
    ``duration``): a supervisions manifest, gzipped or not (the text is read decompressed)."""
    import json

    first = sample.stripped.split("\n", 1)[0]
    if not first.startswith("{"):
        return False
    try:
        entry = json.loads(first)
    except json.JSONDecodeError:
        return False
    return isinstance(entry, dict) and {"recording_id", "start", "duration"} <= set(entry)


def exact_end(start: float, duration: float) -> float:
    """``start + duration`` on their decimal texts (lhotse's ``end`` is their float sum)."""
    if math.isfinite(start) and math.isfinite(duration):
        return exact_sum(start, duration)
    return start + duration
