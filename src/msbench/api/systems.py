"""Systems on a benchmark from Python: ``msbench.evaluate`` (one system's outputs on every
inference unit) and ``msbench.compare`` (every pair of evaluated systems), with plain keyword
arguments; each returns a value that writes the workflow's files (``.write(folder)``) and has
``.to_dict()`` (the JSON ``msbench evaluate`` / ``msbench compare`` write) and ``.to_frame()``.

The keywords are the commands' options (``tests/unit/test_api.py`` holds them equal);
``config`` is a config.yaml (default: ``config/config.yaml`` when it exists, else the schema's
defaults) and ``settings`` its sections laid over it, as a mapping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msbench import catalog

Rows = list[dict[str, Any]]


def resolved_config(config: Path | None, settings: Mapping[str, Any] | None) -> dict[str, Any]:
    """The config file with ``settings`` laid over it, validated, defaults filled in."""
    import json

    from msbench.config import resolve_settings

    return resolve_settings(config, json.dumps(dict(settings)) if settings else None)


@dataclass(frozen=True)
class Evaluation:
    """One system's scores on the benchmark: a row per unit (``units``), per reference
    utterance, per speaker pair, per recording, the empty hypothesis of each excluded unit
    (``penalties``) and the ``summary`` (ratios of sums over the benchmark)."""

    system_id: str
    name: str
    units: Rows
    utterances: Rows
    pairs: Rows
    penalties: Rows
    recordings: Rows
    summary: dict[str, Any] = field(default_factory=dict)

    def rate(self, metric: str) -> float | None:
        """A metric's rate over the units the system scored (a fraction; see msbench.metrics)."""
        from msbench.metrics import metric as named

        return named(metric).rate(self.summary)

    def to_dict(self) -> dict[str, Any]:
        """``score_summary.json``."""
        return dict(self.summary)

    def to_frame(self) -> Any:
        """A pandas DataFrame of ``unit_scores.csv`` (index ``unit_id``)."""
        import pandas as pd

        return pd.DataFrame(self.units).set_index("unit_id")

    def write(self, out_dir: Path) -> None:
        """The evaluation folder the workflow reads: unit_scores.csv, recording_scores.csv,
        utterance_scores.csv, pairs.csv, penalty_scores.csv, score_summary.json."""
        from msbench.tables import write_rows
        from msbench.textio import write_json

        for table, rows in (
            (catalog.UNIT_SCORES, self.units),
            (catalog.UTTERANCE_SCORES, self.utterances),
            (catalog.PAIRS, self.pairs),
            (catalog.PENALTY_SCORES, self.penalties),
            (catalog.RECORDING_SCORES, self.recordings),
        ):
            write_rows(table, out_dir / table.name, rows)
        write_json(out_dir / catalog.SCORE_SUMMARY, self.summary)


def evaluate(
    outputs: Path,
    *,
    benchmark: Path,
    utterances: Path,
    system_id: str,
    name: str | None = None,
    times: str = "absolute",
    format: str | None = None,
    text_pattern: str | None = None,
    units: Path | None = None,
    max_unit_seconds: float | None = None,
    alignments: Path | None = None,
    config: Path | None = None,
    settings: Mapping[str, Any] | None = None,
    threads: int | None = None,
) -> Evaluation:
    """Score one system's outputs (a folder of ``<unit_id>.*`` files, or one file of every
    unit) on every inference unit of a benchmark (``benchmark.csv``, ``utterances.csv``):
    ``times``: ``absolute`` (recording time) or ``relative`` to each unit's start; ``format``:
    the outputs' format when it cannot be told by content; ``units``: the system's units
    manifest (``unit_id, recording_id, start, end``), or ``max_unit_seconds``: the length of
    the chunks it cut each recording into (default: whole recordings); ``alignments``: a
    folder for each scored unit's word view; ``threads``: for a large unit's independent steps
    (default ``scoring.threads``; no number depends on it). A unit that cannot be scored is
    excluded with its reason, never the system.
    """
    from msbench.scoring.aggregate import recording_rows, sum_units
    from msbench.scoring.evaluate import SystemSpec, evaluate_units
    from msbench.scoring.threads import scoring_threads
    from msbench.scoring.units import benchmark_units, read_references
    from msbench.scoring.word_view import view_writer
    from msbench.tables import nonempty, read_rows
    from msbench.textio import atomic_folder

    entry = {"id": system_id, "name": name or system_id, "outputs": str(outputs), "times": times,
             "format": format, "text_pattern": text_pattern, "units": units and str(units),
             "max_unit_seconds": max_unit_seconds}  # fmt: skip
    spec = SystemSpec.from_config(entry)
    rows = {r["recording_id"]: r for r in nonempty(read_rows(catalog.BENCHMARK, benchmark), benchmark)}  # fmt: skip
    scored_units = benchmark_units(entry, list(rows.values()))
    languages = {rid: str(r.get("language") or "") for rid, r in rows.items()}
    scoring = dict(resolved_config(config, settings)["scoring"])
    configured = scoring.pop("threads", None)  # how it runs, not what it computes: not stated
    threads = scoring_threads(threads if threads is not None else configured)
    references = read_references(utterances)
    # alignments/ is evaluate's own subfolder of its output: replaced whatever it holds
    into = atomic_folder(alignments, "msbench evaluate", option=None) if alignments else None
    with into or nullcontext() as folder:
        write = view_writer(folder, scoring) if folder else None  # word views as they are made
        result = evaluate_units(spec, scored_units, references, languages, scoring, write, threads)
    summary = {"system_id": spec.system_id, "system": spec.name, **sum_units(result.units)}
    tables = (result.units, result.utterances, result.pairs, result.penalties)
    recordings = recording_rows(spec.system_id, result.units, rows)
    return Evaluation(spec.system_id, spec.name, *tables, recordings, summary)


@dataclass(frozen=True)
class Comparison:
    """Every pair of systems: ``pairs`` (a row per pair, metric and condition group),
    ``table2`` (each pair's Table 2 effects) and ``document`` (``compare.json``)."""

    pairs: Rows
    table2: Rows
    document: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """``compare.json``."""
        return self.document

    def to_frame(self) -> Any:
        """A pandas DataFrame of ``pairs.csv``."""
        import pandas as pd

        return pd.DataFrame(self.pairs)

    def write(self, out: Path) -> None:
        """pairs.csv, table2_pairs.csv, compare.json, compare.md and compare.png."""
        from msbench.comparison.report import compare_markdown, plot_differences
        from msbench.tables import write_rows
        from msbench.textio import write_atomic, write_json

        write_rows(catalog.COMPARE_PAIRS, out / catalog.COMPARE_PAIRS.name, self.pairs)
        write_rows(catalog.COMPARE_TABLE2, out / catalog.COMPARE_TABLE2.name, self.table2)
        write_json(out / "compare.json", self.document)
        metric, stated = self.document["metric"], self.document["settings"]
        write_atomic(out / "compare.md", compare_markdown(self.pairs, self.table2, stated, metric))
        plot_differences(self.pairs, sorted({"der", metric}), out / "compare.png")


def compare(
    evaluations: Sequence[Path],
    *,
    benchmark: Path,
    similarity: Path | None = None,
    references: Path | None = None,
    config: Path | None = None,
    settings: Mapping[str, Any] | None = None,
) -> Comparison:
    """Compare every pair of evaluated systems (their evaluation folders), overall and per
    condition, on the units both scored: B - A with its interval, the probability that B
    improves on A, a paired test and its correction (:mod:`msbench.comparison`).

    ``similarity``: ``speaker_similarity.jsonl`` for Table 2's similarity analysis (default:
    beside ``benchmark``); ``references``: the benchmark's ``utterances.csv`` (default: beside
    ``benchmark``), with which a unit a folder lacks is charged in the penalised view.
    """
    from msbench.comparison.run import compare_evaluations
    from msbench.tables import nonempty, read_rows

    resolved = resolved_config(config, settings)
    benchmark = Path(benchmark)
    selected = [dict(r) for r in nonempty(read_rows(catalog.BENCHMARK, benchmark), benchmark)]
    beside = benchmark.parent / "speaker_similarity.jsonl"
    found = similarity or (beside if beside.exists() else None)
    folders = sorted(Path(e) for e in evaluations)
    result = compare_evaluations(
        folders, selected, found, resolved, benchmark_references(benchmark, references)
    )
    return Comparison(result.pairs, result.table2, result.document)


def benchmark_references(
    benchmark: Path, references: Path | None
) -> Mapping[str, Sequence[Any]] | None:
    """Each recording's reference segments: ``references`` (``utterances.csv``), else the one
    beside ``benchmark``, else None (missing units are then named, not charged)."""
    from msbench.scoring.units import read_references

    path = references or benchmark.parent / "utterances.csv"
    return read_references(path) if Path(path).exists() else None
