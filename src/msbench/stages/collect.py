"""``msbench collect``: join every source's features, rank quality (d_N), write run manifests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated, Any

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def _joined_features(
    features: Sequence[Path], acoustic: Sequence[Path], rejected_ids: set[str]
) -> list[dict[str, Any]]:
    from msbench.tables import read_table

    acoustic_rows = {row["recording_id"]: row for path in acoustic for row in read_table(path)}
    joined = []
    for path in features:
        for row in read_table(path):
            if row["recording_id"] in rejected_ids:
                continue
            extra = acoustic_rows.get(row["recording_id"], {})
            joined.append({**row, **{k: v for k, v in extra.items() if k != "recording_id"}})
    return joined


def run(
    features: Annotated[tuple[Path, ...], Arg("interaction features of every source (JSONL)")],
    out: Annotated[Path, Arg("characterized recordings (JSONL)")],
    manifests: Annotated[Path, Arg("folder for rejected.csv, utterances.csv, run_summary.json")],
    acoustic: Annotated[tuple[Path, ...], Arg("acoustic features of every shard (JSONL)")] = (),
    rejected: Annotated[tuple[Path, ...], Arg("rejected lists of every stage (JSONL)")] = (),
    utterances: Annotated[tuple[Path, ...], Arg("utterance tables of every source (CSV)")] = (),
    similarity: Annotated[tuple[Path, ...], Arg("similarity matrices of every shard (JSONL)")] = (),
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Join features, rank quality over the pool (d_N), write the run's manifests.

    A recording rejected by the acoustic stage leaves the characterized table.
    Eligibility is marked with the codes of msbench.eligibility, using
    eligibility.min_speakers and acoustic.similarity.min_segment_seconds.
    """
    from msbench.collect import mark_eligibility, read_rejections, run_summary
    from msbench.columns import REJECTED_COLUMNS, UTTERANCE_COLUMNS
    from msbench.errors import InputError
    from msbench.features.quality_rank import add_noise_difficulty
    from msbench.tables import csv_text, write_csv, write_table_jsonl
    from msbench.textio import read_jsonl, read_text, write_atomic, write_json

    resolved = resolve_settings(config, settings)
    rejections = read_rejections(rejected)
    joined = _joined_features(features, acoustic, {r.recording_id for r in rejections})
    recordings = mark_eligibility(
        add_noise_difficulty(joined),
        resolved["eligibility"]["min_speakers"],
        resolved["acoustic"]["similarity"]["min_segment_seconds"],
    )
    write_table_jsonl(out, recordings)
    write_csv(manifests / "rejected.csv", (r.to_row() for r in rejections), REJECTED_COLUMNS)
    utterance_text = csv_text((), UTTERANCE_COLUMNS) + "".join(
        read_text(path).split("\n", 1)[1] for path in sorted(utterances)
    )
    write_atomic(manifests / "utterances.csv", utterance_text)
    matrices = sorted(
        (row for path in similarity for row in read_jsonl(path)), key=lambda r: r["recording_id"]
    )
    write_table_jsonl(manifests / "speaker_similarity.jsonl", matrices)
    summary = run_summary(recordings, rejections)
    write_json(manifests / "run_summary.json", summary)
    if not summary["recordings_eligible"]:
        raise InputError(
            manifests / "run_summary.json",
            f"no eligible recording: {summary['recordings_in']} in, "
            f"{summary['recordings_rejected']} rejected, {summary['recordings_ineligible']} "
            f"ineligible (left out by code: {summary['left_out_by_code'] or 'none'})",
            fix="see rejected.csv and recordings.csv beside it; the pool and selection need at least one",
        )
