"""``msbench evaluate``: one system on the benchmark; units.csv, recordings.csv, summary.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


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
    from msbench import columns
    from msbench.rows import BenchmarkRow
    from msbench.scoring.aggregate import recording_rows, sum_units
    from msbench.scoring.evaluate import SystemSpec, evaluate_units
    from msbench.scoring.units import benchmark_units, read_references
    from msbench.tables import nonempty, read_rows, write_csv
    from msbench.textio import write_json

    entry = json.loads(system)
    spec = SystemSpec.from_config(entry)
    rows_by_id = {
        r["recording_id"]: r for r in nonempty(read_rows(benchmark, BenchmarkRow), benchmark)
    }
    units = benchmark_units(entry, list(rows_by_id.values()))
    languages = {rid: str(r.get("language") or "") for rid, r in rows_by_id.items()}
    scoring = resolve_settings(config, settings)["scoring"]
    result = evaluate_units(spec, units, read_references(utterances), languages, scoring)
    write_csv(out_dir / "units.csv", result.units, columns.UNIT_RESULT_TABLE)
    write_csv(out_dir / "utterances.csv", result.utterances, columns.UTTERANCE_DIAGNOSIS_COLUMNS)
    write_csv(out_dir / "pairs.csv", result.pairs, columns.PAIR_COLUMNS)
    recordings = recording_rows(spec.system_id, result.units, rows_by_id)
    write_csv(out_dir / "recordings.csv", recordings, columns.RECORDING_RESULT_COLUMNS)
    summary = {"system_id": spec.system_id, "system": spec.name, **sum_units(result.units)}
    write_json(out_dir / "summary.json", summary)
