"""``msbench ingest``: validate one source of the dataset sheet."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg


def run(
    sheet: Annotated[Path, Arg("dataset sheet (TSV)")],
    source: Annotated[str, Arg("source name in the sheet")],
    out_dir: Annotated[Path, Arg("folder for recordings.jsonl, rejected.jsonl and encodings.json")],
    end_tolerance: Annotated[
        float, Arg("seconds an annotation may run past the audio end (clipped)")
    ] = 0.5,
    strict_segments: Annotated[
        bool, Arg("reject a session with a zero-length segment instead of keeping it (words only)")
    ] = False,
) -> None:
    """Validate one source: recordings that pass, and a rejected list with reasons.

    Reads SOURCE's annotations and audio headers, writes OUT_DIR/recordings.jsonl
    (one validated recording per line), OUT_DIR/rejected.jsonl, and
    OUT_DIR/encodings.json: the codec each annotation file was decoded with.
    """
    from msbench.catalog import INGEST_REJECTED, INGESTED
    from msbench.ingest.sheet import find_source, read_dataset_sheet
    from msbench.ingest.source import IngestSettings
    from msbench.ingest.source_report import annotation_encodings, ingest_whole_source
    from msbench.tables import write_rows
    from msbench.textio import write_json

    spec = find_source(read_dataset_sheet(sheet), source)
    result = ingest_whole_source(spec, IngestSettings(end_tolerance, strict_segments))
    rejections = (r.to_dict() for r in result.rejections)
    write_rows(INGEST_REJECTED, out_dir / INGEST_REJECTED.name, rejections, exact=True)
    recordings = (r.to_dict() for r in result.recordings)
    write_rows(INGESTED, out_dir / INGESTED.name, recordings, exact=True)
    print(f"msbench ingest: {result.summary(source)}")
    for warning in result.warnings:
        print(f"msbench ingest: warning: {warning}")
    write_json(out_dir / "encodings.json", annotation_encodings(spec))
