"""Stage entry points behind the command line and the Snakemake rules: read files, call, write."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.characterize import (
    INTERACTION_COLUMNS,
    UTTERANCE_COLUMNS,
    interaction_row,
    utterance_rows,
)
from msbench.collect import REJECTED_COLUMNS, mark_eligibility, run_summary
from msbench.dataset_sheet import find_source, read_dataset_sheet
from msbench.errors import InputError
from msbench.features.quality_rank import add_noise_difficulty
from msbench.ingest import IngestedRecording, ingest_source
from msbench.records import Rejection
from msbench.tables import csv_text, read_table, write_csv, write_table_jsonl
from msbench.textio import read_jsonl, read_text, write_atomic, write_json, write_jsonl


def run_ingest(sheet: str, source: str, out_dir: Path, end_tolerance: float) -> None:
    spec = find_source(read_dataset_sheet(sheet), source)
    result = ingest_source(spec, end_tolerance)
    write_jsonl(out_dir / "rejected.jsonl", (r.to_dict() for r in result.rejections))
    write_jsonl(out_dir / "recordings.jsonl", (r.to_dict() for r in result.recordings))


def run_interaction(ingested: Path, out: Path, utterances: Path) -> None:
    items = [IngestedRecording.from_dict(row) for row in read_jsonl(ingested)]
    write_table_jsonl(out, (interaction_row(item) for item in items), INTERACTION_COLUMNS)
    write_csv(
        utterances, (row for item in items for row in utterance_rows(item)), UTTERANCE_COLUMNS
    )


def shard_of(
    items: Sequence[IngestedRecording], shard: int, num_shards: int
) -> list[IngestedRecording]:
    """Recordings ``shard, shard + num_shards, ...`` of the source, in ingest order."""
    return list(items[shard::num_shards])


def run_acoustic(
    ingested: Path,
    shard: int,
    num_shards: int,
    out: Path,
    rejected_out: Path,
    similarity_out: Path,
    settings: Mapping[str, Any],
) -> None:
    """Model features of one shard; a recording that fails goes to the rejected list."""
    from msbench.features.acoustic import ACOUSTIC_COLUMNS, AcousticExtractor

    items = shard_of(
        [IngestedRecording.from_dict(r) for r in read_jsonl(ingested)], shard, num_shards
    )
    extractor = AcousticExtractor(settings["acoustic"], settings["models"])
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
    write_table_jsonl(similarity_out, matrices)
    write_jsonl(rejected_out, (r.to_dict() for r in rejections))


def read_rejections(paths: Sequence[str]) -> list[Rejection]:
    return sorted(
        (Rejection(**row) for path in paths for row in read_jsonl(path)),
        key=lambda r: (r.source_dataset, r.recording_id, r.file),
    )


def run_collect(
    features: Sequence[str],
    acoustic: Sequence[str],
    rejected: Sequence[str],
    utterances: Sequence[str],
    similarity: Sequence[str],
    out: Path,
    manifests: Path,
    min_speakers: int,
) -> None:
    """Join interaction and acoustic rows, rank quality over the pool (d_N), write manifests.

    A recording rejected by the acoustic stage leaves the characterized table.
    """
    acoustic_rows = {row["recording_id"]: row for path in acoustic for row in read_table(path)}
    rejections = read_rejections(rejected)
    rejected_ids = {r.recording_id for r in rejections}
    joined = []
    for path in features:
        for row in read_table(path):
            if row["recording_id"] in rejected_ids:
                continue
            extra = acoustic_rows.get(row["recording_id"], {})
            joined.append({**row, **{k: v for k, v in extra.items() if k != "recording_id"}})
    recordings = mark_eligibility(add_noise_difficulty(joined), min_speakers)
    write_table_jsonl(out, recordings)
    write_csv(manifests / "rejected.csv", (r.to_dict() for r in rejections), REJECTED_COLUMNS)
    utterance_text = csv_text((), UTTERANCE_COLUMNS) + "".join(
        read_text(path).split("\n", 1)[1] for path in sorted(utterances)
    )
    write_atomic(manifests / "utterances.csv", utterance_text)
    matrices = sorted(
        (row for path in similarity for row in read_jsonl(path)), key=lambda r: r["recording_id"]
    )
    write_table_jsonl(manifests / "speaker_similarity.jsonl", matrices)
    write_json(manifests / "run_summary.json", run_summary(recordings, rejections))


def count_batches(ingested: str | Path, batch_size: int) -> int:
    """Extraction batches for a source: ceil(recordings / batch_size), at least 1."""
    recordings = sum(1 for line in read_text(ingested).splitlines() if line.strip())
    return max(1, -(-recordings // batch_size))
