"""``msbench compare``: which system is better, and where: every pair of systems on common units.
The work is :func:`msbench.compare` (the same options)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson


def run(
    evaluations: Annotated[
        tuple[Path, ...],
        Arg("two or more evaluation folders (results/evaluation/<system>/)", metavar="DIR"),
    ],
    benchmark: Annotated[Path, Arg("benchmark.csv (the recordings, their conditions)")],
    out: Annotated[
        Path, Arg("folder for pairs.csv, table2_pairs.csv, compare.md, compare.json, compare.png")
    ],
    similarity: Annotated[
        Path | None,
        Arg(
            "speaker_similarity.jsonl (Table 2's similarity analysis; default: beside --benchmark)"
        ),
    ] = None,
    references: Annotated[
        Path | None,
        Arg("utterances.csv: a unit a folder lacks is charged (default: beside --benchmark)"),
    ] = None,
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Compare every pair of systems, overall and per condition, on the units both scored.

    For each pair (A before B in id order), metric (DER, cpWER, tcpWER, WER, E_lex, E_seg,
    E_attr) and group (all, each P/O/S/T/N range, source, language, scenario): B - A with its
    jackknife-t interval over recordings, the probabilities that B is better, equal or worse
    (cluster bootstrap), a paired test over recordings (compare.test) with the step-down max-T
    over the pairs; one verdict, on the primary metric (compare.metric) over the benchmark, the
    other rows exploratory; and the difference of the two systems' Table 2 effects.
    Conventions: msbench.comparison.paired and .pairs.
    """
    from msbench.api import compare

    compare(
        evaluations,
        benchmark=benchmark,
        similarity=similarity,
        references=references,
        config=config,
        settings=json.loads(settings) if settings else None,
    ).write(out)
