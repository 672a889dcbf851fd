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

from msbench.adapters.common import SessionCollector
from msbench.errors import InputError
from msbench.records import SessionAnnotation
from msbench.timeline import exact_sum


def read_lhotse(
    supervisions: str | Path, recordings: str | Path | None = None
) -> list[SessionAnnotation]:
    from lhotse import RecordingSet, SupervisionSet

    collector = SessionCollector(str(supervisions))
    if recordings:
        try:
            recording_set = list(RecordingSet.from_jsonl_lazy(recordings))
        except (KeyError, TypeError, ValueError) as error:
            raise InputError(recordings, f"not a lhotse recordings manifest ({error})") from error
        for index, recording in enumerate(recording_set, start=1):
            if recording.id in collector.durations:
                collector.problem(
                    recording.id, f"{recordings}:line {index}: recording id appears twice"
                )
            collector.touch(recording.id)
            collector.durations[recording.id] = float(recording.duration)
            files = [source for source in recording.sources if source.type == "file"]
            if files:
                collector.audio_paths[recording.id] = str(files[0].source)
            elif recording.sources:
                kinds = sorted({source.type for source in recording.sources})
                collector.note(
                    recording.id,
                    f"{recordings}:line {index}: audio source of type {', '.join(kinds)} "
                    f"({recording.sources[0].source!r}); msbench reads audio files only: "
                    "write the audio to files and set `audio` in the dataset sheet",
                )
    try:
        supervision_set = list(SupervisionSet.from_jsonl_lazy(supervisions))
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(supervisions, f"not a lhotse supervisions manifest ({error})") from error
    for index, supervision in enumerate(supervision_set, start=1):
        where = f"line {index} (supervision {supervision.id!r})"
        collector.add(
            supervision.recording_id,
            supervision.speaker or "",
            float(supervision.start),
            exact_end(supervision.start, supervision.duration),
            where,
            supervision.text,
        )
    return collector.sessions()


def exact_end(start: float, duration: float) -> float:
    """``start + duration`` on their decimal texts (lhotse's ``end`` is their float sum)."""
    if math.isfinite(start) and math.isfinite(duration):
        return exact_sum(start, duration)
    return start + duration
