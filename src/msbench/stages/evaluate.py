"""``msbench evaluate``: one system on the benchmark; unit_scores.csv, recording_scores.csv,
score_summary.json. The work is :func:`msbench.evaluate` (the same options)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from msbench.io.registry import SCORING_FORMATS
from msbench.stages.options import Arg, ConfigPath, SettingsJson

Outputs = Annotated[
    Path, Arg("the system's outputs: a folder of <unit_id>.* files, or one file of every unit")
]
OutDir = Annotated[
    Path,
    Arg(
        "folder for unit_scores.csv, recording_scores.csv, score_summary.json, "
        "utterance_scores.csv, pairs.csv, penalty_scores.csv, alignments/"
    ),
]
Name = Annotated[str | None, Arg("the system's name as tables show it (default: its id)")]
Times = Annotated[
    str,
    Arg("output times: recording time, or relative to each unit's start",
        choices=("absolute", "relative")),
]  # fmt: skip
Format = Annotated[
    str | None, Arg("the outputs' format (default: told by content)", choices=SCORING_FORMATS)
]
TextPattern = Annotated[str | None, Arg("line regex of timestamped text (named groups)")]
Units = Annotated[
    Path | None, Arg("the system's units manifest (unit_id, recording_id, start, end)")
]
MaxUnitSeconds = Annotated[
    float | None, Arg("the system cut each recording into chunks of this many seconds")
]


def run(
    outputs: Outputs,
    benchmark: Annotated[Path, Arg("benchmark.csv")],
    utterances: Annotated[Path, Arg("utterances.csv (the reference, with words)")],
    system_id: Annotated[str, Arg("the system's id (the config's systems: id)")],
    out_dir: OutDir,
    name: Name = None,
    times: Times = "absolute",
    format: Format = None,
    text_pattern: TextPattern = None,
    units: Units = None,
    max_unit_seconds: MaxUnitSeconds = None,
    config: ConfigPath = None,
    settings: SettingsJson = None,
    threads: Annotated[
        int | None,
        Arg("threads for a large unit (default: scoring.threads, else the CPUs available)"),
    ] = None,
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
    from msbench.api import evaluate

    evaluate(
        outputs,
        benchmark=benchmark,
        utterances=utterances,
        system_id=system_id,
        name=name,
        times=times,
        format=format,
        text_pattern=text_pattern,
        units=units,
        max_unit_seconds=max_unit_seconds,
        alignments=out_dir / "alignments",
        config=config,
        settings=json.loads(settings) if settings else None,
        threads=threads,
    ).write(out_dir)
