"""``msbench acoustic``: CAM++ similarity, DNSMOS P.835 and NISQA of one batch of recordings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, RuntimeJson, SettingsJson, resolve_settings


def run(
    ingested: Annotated[Path, Arg("ingested recordings (JSONL)")],
    out: Annotated[Path, Arg("features (JSONL)")],
    rejected: Annotated[Path, Arg("rejected recordings (JSONL)")],
    similarity: Annotated[Path, Arg("pairwise similarity matrices (JSONL)")],
    batch: Annotated[int, Arg("which batch of the source (0-based)")] = 0,
    batches: Annotated[
        int, Arg("number of batches the source is split into (1: every recording)")
    ] = 1,
    config: ConfigPath = None,
    settings: SettingsJson = None,
    runtime: RuntimeJson = None,
    mem_mb: Annotated[int | None, Arg("memory the job was given (MB), named in its log")] = None,
) -> None:
    """Speaker similarity (CAM++), DNSMOS P.835 and NISQA of ingested recordings.

    Model features of every BATCHES-th recording starting at BATCH.
    Recordings whose audio is damaged go to --rejected; the others go on.
    """
    from msbench.catalog import BATCH_ACOUSTIC, BATCH_REJECTED, BATCH_SIMILARITY, INGESTED
    from msbench.features.acoustic import AcousticExtractor
    from msbench.features.batches import batch_of, checked_plan, extract_all
    from msbench.progress import Progress
    from msbench.records import IngestedRecording
    from msbench.tables import read_rows, write_rows

    resolved = resolve_settings(config, settings, runtime)
    plan = checked_plan(ingested, resolved["acoustic"], batches)
    items = batch_of(
        [IngestedRecording.from_dict(r) for r in read_rows(INGESTED, ingested)], batch, plan
    )
    extractor = AcousticExtractor(resolved["acoustic"], resolved["models"])
    hours = sum(item.recording.duration_seconds for item in items)
    progress = Progress(f"acoustic {ingested.parent.name} {batch + 1}/{batches}", len(items), hours)
    rows, matrices, rejections = extract_all(items, extractor, progress, mem_mb)
    write_rows(BATCH_ACOUSTIC, out, rows)
    write_rows(BATCH_SIMILARITY, similarity, matrices)
    write_rows(BATCH_REJECTED, rejected, (r.to_dict() for r in rejections), exact=True)
