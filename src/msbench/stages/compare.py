"""``msbench compare``: which system is better, and where: every pair of systems on common units."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


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
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Compare every pair of systems, overall and per condition, on the units both scored.

    For each pair (A before B in id order), metric (DER, cpWER, tcpWER, WER, E_lex, E_seg,
    E_attr) and group (all, each P/O/S/T/N range, source, language, scenario): B - A with its
    paired recording-level cluster-bootstrap interval, the probability that B improves on A,
    a paired test over recordings (compare.test) and Holm's correction; and the difference of
    the two systems' Table 2 effects. Conventions: msbench.comparison.paired.
    """
    from msbench.catalog import BENCHMARK, COMPARE_PAIRS, COMPARE_TABLE2
    from msbench.comparison.report import compare_markdown, plot_differences
    from msbench.comparison.run import compare_evaluations
    from msbench.tables import nonempty, read_rows, write_rows
    from msbench.textio import write_atomic, write_json

    resolved = resolve_settings(config, settings)
    selected = [dict(r) for r in nonempty(read_rows(BENCHMARK, benchmark), benchmark)]
    beside = benchmark.parent / "speaker_similarity.jsonl"
    found = similarity or (beside if beside.exists() else None)
    result = compare_evaluations(sorted(evaluations), selected, found, resolved)
    write_rows(COMPARE_PAIRS, out / COMPARE_PAIRS.name, result.pairs)
    write_rows(COMPARE_TABLE2, out / COMPARE_TABLE2.name, result.table2)
    write_json(out / "compare.json", result.document)
    metric = result.document["metric"]
    markdown = compare_markdown(result.pairs, result.table2, result.document["settings"], metric)
    write_atomic(out / "compare.md", markdown)
    plot_differences(result.pairs, sorted({"der", metric}), out / "compare.png")
