"""``msbench acoustic``: CAM++ similarity, DNSMOS P.835 and NISQA of one shard of recordings."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from msbench.stages.options import Arg, ConfigPath, RuntimeJson, SettingsJson, resolve_settings

if TYPE_CHECKING:  # heavy imports stay inside the functions
    from msbench.features.acoustic import AcousticExtractor
    from msbench.ingest import IngestedRecording
    from msbench.progress import Progress
    from msbench.records import Rejection

T = TypeVar("T")


def shard_of(items: Sequence[T], shard: int, num_shards: int) -> list[T]:
    """Items ``shard, shard + num_shards, ...``, in order.

    >>> shard_of(["a", "b", "c", "d", "e"], 1, 2)
    ['b', 'd']
    """
    return list(items[shard::num_shards])


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


def run(
    ingested: Annotated[
        Path, Arg("ingested recordings (JSONL)", positional=True, metavar="RECORDINGS_JSONL")
    ],
    out: Annotated[Path, Arg("features (JSONL)")],
    rejected: Annotated[Path, Arg("rejected recordings (JSONL)")],
    similarity: Annotated[Path, Arg("pairwise similarity matrices (JSONL)")],
    shard: Annotated[int, Arg("first recording of this shard (0-based)")] = 0,
    num_shards: Annotated[int, Arg("number of shards the source is split into")] = 1,
    config: ConfigPath = None,
    settings: SettingsJson = None,
    runtime: RuntimeJson = None,
) -> None:
    """Speaker similarity (CAM++), DNSMOS P.835 and NISQA of ingested recordings.

    Model features of every NUM_SHARDS-th recording starting at SHARD.
    Recordings whose audio is damaged go to --rejected; the others go on.
    """
    from msbench.columns import ACOUSTIC_COLUMNS
    from msbench.features.acoustic import AcousticExtractor
    from msbench.ingest import IngestedRecording
    from msbench.progress import Progress
    from msbench.tables import write_table_jsonl
    from msbench.textio import read_jsonl, write_jsonl

    resolved = resolve_settings(config, settings, runtime)
    items = shard_of(
        [IngestedRecording.from_dict(r) for r in read_jsonl(ingested)], shard, num_shards
    )
    extractor = AcousticExtractor(resolved["acoustic"], resolved["models"])
    progress = Progress(
        f"acoustic {ingested.parent.name} {shard + 1}/{num_shards}",
        len(items),
        sum(item.recording.duration_seconds for item in items),
    )
    rows, matrices, rejections = extract_all(items, extractor, progress)
    write_table_jsonl(out, rows, ACOUSTIC_COLUMNS)
    write_table_jsonl(similarity, matrices)
    write_jsonl(rejected, (r.to_dict() for r in rejections))


def count_batches(ingested: str | Path, batch_size: int) -> int:
    """Extraction batches for a source: ceil(recordings / batch_size), at least 1."""
    from msbench.textio import read_text

    recordings = sum(1 for line in read_text(ingested).splitlines() if line.strip())
    return max(1, -(-recordings // batch_size))
