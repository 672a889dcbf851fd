"""Stage entry points behind the command line and the Snakemake rules: read files, call, write."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from msbench.characterize import INTERACTION_COLUMNS, UTTERANCE_COLUMNS, interaction_row, utterance_rows
from msbench.collect import REJECTED_COLUMNS, mark_eligibility, run_summary
from msbench.dataset_sheet import find_source, read_dataset_sheet
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


def read_rejections(paths: Sequence[str]) -> list[Rejection]:
    return sorted(
        (Rejection(**row) for path in paths for row in read_jsonl(path)),
        key=lambda r: (r.source_dataset, r.recording_id, r.file),
    )


def run_collect(
    features: Sequence[str],
    rejected: Sequence[str],
    utterances: Sequence[str],
    out_dir: Path,
    min_speakers: int,
) -> None:
    recordings = mark_eligibility(
        (row for path in features for row in read_table(path)), min_speakers
    )
    rejections = read_rejections(rejected)
    columns = (*INTERACTION_COLUMNS, "eligible", "ineligible_reasons")
    write_csv(out_dir / "recordings.csv", recordings, columns)
    write_csv(out_dir / "rejected.csv", (r.to_dict() for r in rejections), REJECTED_COLUMNS)
    utterance_text = csv_text((), UTTERANCE_COLUMNS) + "".join(
        read_text(path).split("\n", 1)[1] for path in sorted(utterances)
    )
    write_atomic(out_dir / "utterances.csv", utterance_text)
    write_json(out_dir / "run_summary.json", run_summary(recordings, rejections))
