"""``msbench acoustic``: CAM++ similarity, DNSMOS P.835 and NISQA of one shard of recordings."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, TypeVar

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings

T = TypeVar("T")


def shard_of(items: Sequence[T], shard: int, num_shards: int) -> list[T]:
    """Items ``shard, shard + num_shards, ...``, in order.

    >>> shard_of(["a", "b", "c", "d", "e"], 1, 2)
    ['b', 'd']
    """
    return list(items[shard::num_shards])


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
) -> None:
    """Speaker similarity (CAM++), DNSMOS P.835 and NISQA of ingested recordings.

    Model features of every NUM_SHARDS-th recording starting at SHARD.
    Recordings whose audio is damaged go to --rejected; the others go on.
    """
    from msbench.columns import ACOUSTIC_COLUMNS
    from msbench.errors import InputError
    from msbench.features.acoustic import AcousticExtractor
    from msbench.ingest import IngestedRecording
    from msbench.records import Rejection
    from msbench.tables import write_table_jsonl
    from msbench.textio import read_jsonl, write_jsonl

    resolved = resolve_settings(config, settings)
    items = shard_of(
        [IngestedRecording.from_dict(r) for r in read_jsonl(ingested)], shard, num_shards
    )
    extractor = AcousticExtractor(resolved["acoustic"], resolved["models"])
    rows, matrices, rejections = [], [], []
    for item in items:
        try:
            row, matrix = extractor.extract(item)
        except InputError as error:
            recording = item.recording
            rejections.append(
                Rejection(
                    recording.recording_id,
                    recording.source_dataset,
                    error.path,
                    str(error),
                    "acoustic",
                )
            )
            continue
        rows.append(row)
        matrices.append(matrix)
    write_table_jsonl(out, rows, ACOUSTIC_COLUMNS)
    write_table_jsonl(similarity, matrices)
    write_jsonl(rejected, (r.to_dict() for r in rejections))


def count_batches(ingested: str | Path, batch_size: int) -> int:
    """Extraction batches for a source: ceil(recordings / batch_size), at least 1."""
    from msbench.textio import read_text

    recordings = sum(1 for line in read_text(ingested).splitlines() if line.strip())
    return max(1, -(-recordings // batch_size))
