"""Model features of one batch of a source's recordings, one recording at a time.

A source's recordings are split into batches (one SLURM job each); batch
``k`` of ``n`` holds recordings ``k, k + n, k + 2n, ...`` (:func:`batch_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # heavy imports stay inside the functions
    from msbench.features.acoustic import AcousticExtractor
    from msbench.progress import Progress
    from msbench.records import IngestedRecording, Rejection

T = TypeVar("T")


def batch_of(items: Sequence[T], batch: int, batches: int) -> list[T]:
    """Items ``batch, batch + batches, ...``, in order.

    >>> batch_of(["a", "b", "c", "d", "e"], 1, 2)
    ['b', 'd']
    """
    return list(items[batch::batches])


def extract_all(
    items: Sequence[IngestedRecording], extractor: AcousticExtractor, progress: Progress
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[Rejection]]:
    """Feature rows, similarity records and rejections of ``items``, one recording at a time.

    A recording whose audio is damaged (InputError), or on which a model fails
    (any other exception from the model libraries), becomes that recording's
    rejection with the library's message; missing weights stop the job.
    """
    from concurrent.futures import Future, ThreadPoolExecutor

    from msbench.errors import InputError, ModelUnavailableError
    from msbench.features.acoustic import load_16k
    from msbench.records import Rejection

    rows, matrices, rejections = [], [], []
    ahead = max(1, int(extractor.settings.get("decode_workers", 1)))
    decoder = ThreadPoolExecutor(ahead)  # decodes the next recordings while the models run
    pending: list[Future[Any]] = [decoder.submit(load_16k, item) for item in items[:ahead]]
    for index, item in enumerate(items):
        recording = item.recording
        decoded = pending.pop(0)
        if index + ahead < len(items):
            pending.append(decoder.submit(load_16k, items[index + ahead]))
        try:
            row, matrix = extractor.extract(item, decoded.result())
            rows.append(row)
            matrices.append(matrix)
        except ModelUnavailableError:
            raise
        except InputError as error:
            rejections.append(
                Rejection(
                    recording.recording_id,
                    recording.source_dataset,
                    error.path,
                    str(error),
                    "acoustic",
                )
            )
        except (RuntimeError, ValueError, IndexError) as error:
            reason = (
                f"{recording.audio_path}: a model failed on this recording "
                f"({type(error).__name__}: {error}); check its audio (length, content)"
            )
            rejections.append(
                Rejection(
                    recording.recording_id,
                    recording.source_dataset,
                    recording.audio_path,
                    reason,
                    "acoustic",
                )
            )
        progress.done(recording.duration_seconds)
    decoder.shutdown()
    return rows, matrices, rejections


def count_batches(ingested: str | Path, batch_size: int) -> int:
    """Extraction batches for a source: ceil(recordings / batch_size), at least 1."""
    from msbench.textio import read_text

    recordings = sum(1 for line in read_text(ingested).splitlines() if line.strip())
    return max(1, -(-recordings // batch_size))
