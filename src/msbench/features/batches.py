"""Model features of one batch of a source's recordings, one recording at a time.

A source's recordings are split into batches (one SLURM job each) by audio
hours (:func:`plan_batches`): in the ingested order, a batch takes recordings
until the next would bring it over ``acoustic.batch_hours`` (a longer
recording is a batch of its own) or ``acoustic.batch_size`` recordings. A
job's memory and runtime then follow the audio it holds
(:mod:`msbench.features.job_size`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from msbench.features.job_size import (
    acoustic_mem_mb,
    acoustic_runtime_minutes,
    block_windows_of,
    memory_line,
)

if TYPE_CHECKING:  # heavy imports stay inside the functions
    from msbench.features.acoustic import AcousticExtractor
    from msbench.progress import Progress
    from msbench.records import IngestedRecording, Rejection

T = TypeVar("T")


def plan_batches(
    seconds: Sequence[float], batch_hours: float, batch_size: int | None = None
) -> list[list[int]]:
    """Indices of each batch: consecutive recordings up to ``batch_hours`` of audio each.

    >>> plan_batches([1800, 1800, 3600, 900, 900, 900], batch_hours=1.0)
    [[0, 1], [2], [3, 4, 5]]
    >>> plan_batches([7200, 60], batch_hours=1.0), plan_batches([60] * 5, 1.0, batch_size=2)
    ([[0], [1]], [[0, 1], [2, 3], [4]])
    >>> plan_batches([], 1.0)
    [[]]
    """
    limit = batch_hours * 3600.0
    batches: list[list[int]] = [[]]
    held = 0.0
    for index, length in enumerate(seconds):
        full = batch_size is not None and len(batches[-1]) >= batch_size
        if batches[-1] and (held + length > limit or full):
            batches.append([])
            held = 0.0
        batches[-1].append(index)
        held += length
    return batches


def batch_of(items: Sequence[T], batch: int, plan: Sequence[Sequence[int]]) -> list[T]:
    """The items of batch ``batch`` of ``plan`` (:func:`plan_batches`), in order.

    >>> batch_of(["a", "b", "c"], 1, [[0, 1], [2]])
    ['c']
    """
    return [items[k] for k in plan[batch]]


def extract_all(
    items: Sequence[IngestedRecording],
    extractor: AcousticExtractor,
    progress: Progress,
    mem_mb: int | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Rejection]]:
    """Feature rows, similarity records and rejections of ``items``, one recording at a time.

    A recording whose audio is damaged (InputError), or on which a model fails
    (any other exception from the model libraries), becomes that recording's
    rejection with the library's message; missing weights stop the job. Before
    each recording the log names it with the memory the model expects
    (:func:`msbench.features.job_size.memory_line`), so a job killed for
    memory ends its log with the recording it was on.
    """
    import sys
    from concurrent.futures import Future, ThreadPoolExecutor

    from msbench.errors import InputError, ModelUnavailableError
    from msbench.features.acoustic import load_16k

    rows, matrices, rejections = [], [], []
    ahead = max(1, int(extractor.settings.get("decode_workers", 1)))
    decoder = ThreadPoolExecutor(ahead)  # decodes the next recordings while the models run
    pending: list[Future[Any]] = [decoder.submit(load_16k, item) for item in items[:ahead]]
    windows = block_windows_of(extractor.settings)
    for index, item in enumerate(items):
        recording = item.recording
        decoded = pending.pop(0)
        print(memory_line(recording, mem_mb, windows), file=sys.stderr, flush=True)
        if index + ahead < len(items):
            pending.append(decoder.submit(load_16k, items[index + ahead]))
        try:
            row, matrix = extractor.extract(item, decoded.result())
            rows.append(row)
            matrices.append(matrix)
        except ModelUnavailableError:
            raise
        except (InputError, RuntimeError, ValueError, IndexError) as error:
            rejections.append(rejection(item, error))
        progress.done(recording.duration_seconds)
    decoder.shutdown()
    return rows, matrices, rejections


def rejection(item: IngestedRecording, error: Exception) -> Rejection:
    """The acoustic rejection of a recording: damaged audio (InputError) or a failing model."""
    from msbench.errors import InputError
    from msbench.records import Rejection

    recording = item.recording
    if isinstance(error, InputError):
        path, reason = error.path, str(error)
    else:
        path, reason = (
            recording.audio_path,
            (
                f"{recording.audio_path}: a model failed on this recording "
                f"({type(error).__name__}: {error}); check its audio (length, content)"
            ),
        )
    return Rejection(recording.recording_id, recording.source_dataset, path, reason, "acoustic")


def ingested_seconds(ingested: str | Path) -> list[float]:
    """Each ingested recording's audio length in seconds, in the file's order.

    The whole audio file is read for the models, so this is the file's length
    (its header's frames over its rate), not the UEM-scored duration. The
    headers are read once per ingested file (and its modification time): the
    Snakefile asks for a source's batch count and then for each batch's
    resources, all from the same lengths.
    """
    path = Path(ingested)
    stat = path.stat()
    return list(_file_lengths(str(path.resolve()), stat.st_mtime_ns, stat.st_size))


@cache
def _file_lengths(ingested: str, mtime_ns: int, size: int) -> tuple[float, ...]:
    import json

    from msbench.audio import file_seconds
    from msbench.errors import InputError
    from msbench.textio import read_text, split_lines

    del mtime_ns, size  # part of the cache key only
    lengths = []
    for number, line in enumerate(split_lines(read_text(ingested)), start=1):
        if line.strip():
            try:
                recording = json.loads(line)["recording"]
                lengths.append(file_seconds(recording["audio_path"], recording["duration_seconds"]))
            except (json.JSONDecodeError, KeyError, TypeError) as error:
                raise InputError(
                    ingested,
                    f"not an ingested recording ({type(error).__name__}: {error})",
                    where=f"line {number}",
                    fix="delete the file and rerun: the ingest step writes it again (it was cut "
                    "or edited since)",
                ) from error
    return tuple(lengths)


def source_plan(ingested: str | Path, acoustic: Mapping[str, Any]) -> list[list[int]]:
    """The batches of one source's ingested recordings under the ``acoustic`` config section."""
    return plan_batches(
        ingested_seconds(ingested), acoustic["batch_hours"], acoustic.get("batch_size")
    )


def checked_plan(ingested: str | Path, acoustic: dict[str, Any], batches: int) -> list[list[int]]:
    """:func:`source_plan`, checked to have the ``batches`` batches the workflow asked for.

    ``batches`` 1 (a stage run by hand) is every recording of the source in one job.
    """
    from msbench.errors import InputError

    if batches == 1:
        from msbench.catalog import INGESTED
        from msbench.tables import read_rows

        return [list(range(len(read_rows(INGESTED, ingested))))]
    plan = source_plan(ingested, acoustic)
    if len(plan) != batches:
        raise InputError(
            ingested,
            f"the acoustic settings split this source into {len(plan)} batches, "
            f"the job was planned with {batches}",
            fix="rerun the workflow (acoustic.batch_hours or batch_size changed since the plan)",
        )
    return plan


def count_batches(ingested: str | Path, acoustic: dict[str, Any]) -> int:
    """Extraction batches of a source (at least 1)."""
    return len(source_plan(ingested, acoustic))


def acoustic_job(
    ingested: str | Path, batch: int, acoustic: Mapping[str, Any], attempt: int = 1
) -> dict[str, float]:
    """Resources of acoustic batch ``batch`` of a source (``mem_mb``, ``runtime``) and their basis.

    The Snakemake resource callables of the acoustic rule read this, so a
    batch's request follows its longest recording and its audio hours.
    """
    seconds, plan = ingested_seconds(ingested), source_plan(ingested, acoustic)
    held = sorted((seconds[k] for k in plan[batch]), reverse=True) if batch < len(plan) else []
    longest = held[0] / 60.0 if held else 0.0
    ahead = sum(held[1 : 1 + max(1, acoustic.get("decode_workers", 1))]) / 60.0
    hours = sum(held) / 3600.0
    modelled = acoustic_mem_mb(
        longest, ahead, attempt=attempt, block_windows=block_windows_of(acoustic)
    )
    runtime = acoustic_runtime_minutes(hours, acoustic.get("threads", 1), attempt)
    return {
        "mem_mb": int(acoustic["mem_mb"]) * max(1, attempt) if acoustic.get("mem_mb") else modelled,
        "runtime": int(acoustic["runtime_min"]) * max(1, attempt)
        if acoustic.get("runtime_min")
        else runtime,
        "predicted_mb": modelled,
        "longest_minutes": longest,
        "audio_hours": hours,
        "recordings": len(held),
    }
