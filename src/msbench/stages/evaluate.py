"""``msbench evaluate``: one system on the benchmark; units.csv, recordings.csv, summary.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings

UNIT_RESULT_COLUMNS = (
    "system", "unit_id", "recording_id", "start", "end", "status", "reason", "degradation",
    "der", "der_collar0", "cpwer", "tcpwer", "wer", "tcorcwer",
    "e_lex", "e_seg", "e_attr", "r_time", "ref_speakers", "hyp_speakers", "notes",
)  # fmt: skip


def benchmark_units(system: dict[str, Any], benchmark: list[dict[str, Any]]) -> list[Any]:
    """The system's units, each with its recording's scored region (its DER UEM)."""
    from dataclasses import replace

    from msbench.scoring.units import fixed_chunks, read_units, recording_spans, whole_recordings

    recordings = [(str(r["recording_id"]), recording_spans(r)) for r in benchmark]
    if system.get("units"):
        spans = dict(recordings)
        return [
            replace(u, scored=spans.get(u.recording_id, ())) for u in read_units(system["units"])
        ]
    if system.get("max_unit_seconds"):
        return fixed_chunks(recordings, float(system["max_unit_seconds"]))
    return whole_recordings(recordings)


def references(utterances: Path) -> dict[str, list[Any]]:
    from msbench.records import Segment
    from msbench.tables import read_table

    by_recording: dict[str, list[Any]] = {}
    for row in read_table(utterances):
        segment = Segment(
            row["recording_id"],
            row["start_time"],
            row["end_time"],
            row["speaker"],
            row.get("words") or "",
        )
        by_recording.setdefault(row["recording_id"], []).append(segment)
    return by_recording


def run(
    system: Annotated[str, Arg("the system's entry of the config's systems: list, as JSON")],
    benchmark: Annotated[Path, Arg("benchmark.csv")],
    utterances: Annotated[Path, Arg("utterances.csv (the reference, with words)")],
    out_dir: Annotated[
        Path, Arg("folder for units.csv, recordings.csv, summary.json, utterances.csv, pairs.csv")
    ],
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Score one system's outputs on every inference unit of the benchmark.

    units.csv: one row per unit with every count, its status (scored,
    degraded, excluded) and reason; recordings.csv: ratios of sums per
    recording; summary.json: ratios of sums over the benchmark; utterances.csv
    and pairs.csv: the diagnostics of every reference utterance and speaker pair.
    """
    from msbench.columns import AXES, PAIR_COLUMNS, UTTERANCE_DIAGNOSIS_COLUMNS
    from msbench.scoring.aggregate import (
        COUNT_COLUMNS,
        RATE_COLUMNS,
        UNIT_COUNT_COLUMNS,
        group_rows,
        sum_units,
    )
    from msbench.scoring.evaluate import SystemSpec, evaluate_units
    from msbench.tables import read_table, write_csv
    from msbench.textio import write_json

    entry = json.loads(system)
    spec = SystemSpec.from_config(entry)
    scoring = resolve_settings(config, settings)["scoring"]
    rows_by_id = {str(r["recording_id"]): r for r in read_table(benchmark)}
    units = benchmark_units(entry, list(rows_by_id.values()))
    languages = {rid: str(r.get("language") or "") for rid, r in rows_by_id.items()}
    evaluation = evaluate_units(spec, units, references(utterances), languages, scoring)
    rows = evaluation.units
    write_csv(out_dir / "units.csv", rows, (*UNIT_RESULT_COLUMNS, *COUNT_COLUMNS))
    write_csv(out_dir / "utterances.csv", evaluation.utterances, UTTERANCE_DIAGNOSIS_COLUMNS)
    write_csv(out_dir / "pairs.csv", evaluation.pairs, PAIR_COLUMNS)
    recordings = []
    for rid, members in group_rows(rows, lambda r: [r["recording_id"]]).items():
        labels = {axis: rows_by_id.get(rid, {}).get(axis) for axis in AXES}
        recordings.append(
            {"system": spec.system_id, "recording_id": rid, **labels, **sum_units(members)}
        )
    columns = ("system", "recording_id", *AXES, *UNIT_COUNT_COLUMNS, *RATE_COLUMNS, *COUNT_COLUMNS)
    write_csv(out_dir / "recordings.csv", recordings, columns)
    write_json(
        out_dir / "summary.json",
        {"system_id": spec.system_id, "system": spec.name, **sum_units(rows)},
    )
