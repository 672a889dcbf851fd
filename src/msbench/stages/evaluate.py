"""``msbench evaluate``: one system on the benchmark; unit_scores.csv, recording_scores.csv,
score_summary.json."""

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
        Path,
        Arg(
            "folder for unit_scores.csv, recording_scores.csv, score_summary.json, utterance_scores.csv, pairs.csv, penalty_scores.csv, alignments/"
        ),
    ],
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Score one system's outputs on every inference unit of the benchmark.

    unit_scores.csv: one row per unit with every count, its status (scored,
    degraded, excluded) and reason; recording_scores.csv: ratios of sums per
    recording; score_summary.json: ratios of sums over the benchmark;
    utterance_scores.csv and pairs.csv: the diagnostics of every reference
    utterance and speaker pair; penalty_scores.csv: each excluded unit scored as an
    empty hypothesis (the leaderboard's penalised view); alignments/<unit>.json:
    every word of each scored unit with its cpWER and tcpWER class
    (:mod:`msbench.scoring.word_view`).
    """
    from msbench import catalog
    from msbench.scoring.aggregate import recording_rows, sum_units
    from msbench.scoring.evaluate import SystemSpec, evaluate_units
    from msbench.scoring.units import benchmark_units, read_references
    from msbench.scoring.word_view import view_writer
    from msbench.tables import nonempty, read_rows, write_rows
    from msbench.textio import atomic_folder, write_json

    spec = SystemSpec.from_config(entry := json.loads(system))
    rows_by_id = {
        r["recording_id"]: r for r in nonempty(read_rows(catalog.BENCHMARK, benchmark), benchmark)
    }
    units = benchmark_units(entry, list(rows_by_id.values()))
    languages = {rid: str(r.get("language") or "") for rid, r in rows_by_id.items()}
    scoring = resolve_settings(config, settings)["scoring"]
    references = read_references(utterances)
    with atomic_folder(out_dir / "alignments") as folder:  # each unit's word view, as made
        result = evaluate_units(
            spec, units, references, languages, scoring, view_writer(folder, scoring)
        )
    for table, rows in (
        (catalog.UNIT_SCORES, result.units),
        (catalog.UTTERANCE_SCORES, result.utterances),
        (catalog.PAIRS, result.pairs),
        (catalog.PENALTY_SCORES, result.penalties),
        (catalog.RECORDING_SCORES, recording_rows(spec.system_id, result.units, rows_by_id)),
    ):
        write_rows(table, out_dir / table.name, rows)
    summary = {"system_id": spec.system_id, "system": spec.name, **sum_units(result.units)}
    write_json(out_dir / catalog.SCORE_SUMMARY, summary)
