"""``msbench collect``: join every source's features, rank quality (d_N), write run manifests."""

from __future__ import annotations

import sys
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
    for source, reason in done.summary["failed_sources"].items():
        print(f"msbench collect: source {source!r}: {reason}", file=sys.stderr)
    if done.summary["failed_sources"] and resolved.get("strict_sources"):
        from msbench.errors import InputError

        raise InputError(
            manifests / "run_summary.json",
            f"{len(done.summary['failed_sources'])} source(s) gave no recording "
            f"({', '.join(done.summary['failed_sources'])}) and strict_sources is set",
            fix="see rejected.csv beside it; fix or remove the source, or set strict_sources: false",
        )
    require_eligible(done.summary, manifests / "run_summary.json")
