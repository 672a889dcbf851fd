"""``msbench collect``: join every source's features, rank quality (d_N), write run manifests."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def run(
    features: Annotated[tuple[Path, ...], Arg("interaction features of every source (JSONL)")],
    out: Annotated[Path, Arg("characterized recordings (JSONL)")],
    manifests: Annotated[Path, Arg("folder for rejected.csv, utterances.csv, run_summary.json")],
    acoustic: Annotated[tuple[Path, ...], Arg("acoustic features of every batch (JSONL)")] = (),
    rejected: Annotated[tuple[Path, ...], Arg("rejected lists of every stage (JSONL)")] = (),
    utterances: Annotated[tuple[Path, ...], Arg("utterance tables of every source (CSV)")] = (),
    similarity: Annotated[tuple[Path, ...], Arg("similarity matrices of every batch (JSONL)")] = (),
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Join features, rank quality over the pool (d_N), write the run's manifests.

    A recording rejected by the acoustic stage leaves the characterized table.
    Eligibility is marked with the codes of msbench.eligibility, using
    eligibility.min_speakers and acoustic.similarity.min_segment_seconds.
    """
    from msbench.catalog import CHARACTERIZED, REJECTED, SIMILARITY, UTTERANCES
    from msbench.features.collect import collect, require_eligible
    from msbench.tables import write_rows
    from msbench.textio import write_json

    resolved = resolve_settings(config, settings)
    done = collect(features, acoustic, rejected, utterances, similarity, resolved)
    write_rows(CHARACTERIZED, out, done.recordings)
    write_rows(REJECTED, manifests / REJECTED.name, (r.to_row() for r in done.rejections))
    write_rows(UTTERANCES, manifests / UTTERANCES.name, done.utterances)
    write_rows(SIMILARITY, manifests / SIMILARITY.name, done.matrices)
    write_json(manifests / "run_summary.json", done.summary)
    require_eligible(done.summary, manifests / "run_summary.json")
