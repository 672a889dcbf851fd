"""lhotse manifests: a supervisions manifest, plus the recordings manifest for audio paths.

Users run lhotse's recipes (``lhotse prepare aishell4 ...``) and point msbench at
``*_supervisions_*.jsonl.gz`` (annotations) and ``*_recordings_*.jsonl.gz``
(audio). Both are read with lhotse itself. A supervision's ``recording_id`` is
the session; ``start``/``duration`` are seconds; the recording's first ``file``
source is the audio path and its ``duration`` the annotation's duration.
"""

from __future__ import annotations

import math
from pathlib import Path

from msbench.io.collector import SessionCollector
from msbench.records import SessionAnnotation
from msbench.textio import read_text, split_lines
from msbench.timeline import exact_sum


def read_lhotse(
    supervisions: str | Path, recordings: str | Path | None = None
) -> list[SessionAnnotation]:
    """Sessions from a supervisions manifest (and a recordings manifest): a bad line of either
    rejects only the recording it names (a line naming none is skipped, and said)."""
    collector = SessionCollector(str(supervisions))
    if recordings:
        for index, line in enumerate(split_lines(read_text(recordings)), start=1):
            if line.strip():
                _add_recording(collector, recordings, index, line)
    known = set(collector.durations) if recordings else None
    for index, line in enumerate(split_lines(read_text(supervisions)), start=1):
        if line.strip():
            _add_supervision(collector, supervisions, index, line, known, recordings)
    return collector.sessions()


def _add_recording(collector: SessionCollector, path: str | Path, index: int, line: str) -> None:
    """One recordings-manifest line: its duration and audio file, or a problem of its id."""
    import json

    from lhotse import Recording

    try:
        entry = json.loads(line)
        recording = Recording.from_dict(entry)
    except json.JSONDecodeError as error:
        collector.skip(f"{path}:line {index}: invalid JSON ({error.msg})")
        return
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        message = f"{path}:line {index}: not a lhotse recording ({type(error).__name__}: {error})"
        named = entry.get("id") if isinstance(entry, dict) else None
        if isinstance(named, str) and named:
            collector.problem(named, message)
            collector.durations.setdefault(named, math.nan)
        else:
            collector.skip(message)
        return
    if recording.id in collector.durations:
        collector.problem(recording.id, f"{path}:line {index}: recording id appears twice")
    collector.touch(recording.id)
    collector.durations[recording.id] = float(recording.duration)
    files = [source for source in recording.sources if source.type == "file"]
    if files:
        collector.audio_paths[recording.id] = str(files[0].source)
    elif recording.sources:
        kinds = sorted({source.type for source in recording.sources})
        collector.note(
            recording.id,
            f"{path}:line {index}: audio source of type {', '.join(kinds)} "
            f"({recording.sources[0].source!r}); msbench reads audio files only: "
            "write the audio to files and set `audio` in the dataset sheet",
        )


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

    from lhotse import SupervisionSegment

    try:
        entry = json.loads(line)
    except json.JSONDecodeError as error:
        collector.skip(f"{path}:line {index}: invalid JSON ({error.msg})")
        return
    try:
        supervision = SupervisionSegment.from_dict(entry)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        message = f"{path}:line {index}: not a lhotse supervision ({type(error).__name__}: {error})"
        named = entry.get("recording_id") if isinstance(entry, dict) else None
        if not named or isinstance(named, bool):
            collector.skip(message)
        else:
            collector.problem(str(named), message)
        return
    where = f"line {index} (supervision {supervision.id!r})"
    if known is not None and supervision.recording_id not in known:
        collector.problem(
            supervision.recording_id,
            f"{path}:{where}: recording {supervision.recording_id!r} is not in the recordings "
            f"manifest {recordings} (add it there, or fix the supervision's recording_id)",
        )
        return
    collector.add(
        supervision.recording_id,
        supervision.speaker or "",
        float(supervision.start),
        exact_end(supervision.start, supervision.duration),
        where,
        supervision.text,
    )


def exact_end(start: float, duration: float) -> float:
    """``start + duration`` on their decimal texts (lhotse's ``end`` is their float sum)."""
    if math.isfinite(start) and math.isfinite(duration):
        return exact_sum(start, duration)
    return start + duration
