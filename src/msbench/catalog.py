"""Every table msbench reads or writes, declared once: its name, where it lives, its row type and
columns (from :mod:`msbench.rows` and :mod:`msbench.columns`; ``None`` for a document whose
fields vary or are declared where it is made), and the stage that writes it.

:func:`msbench.tables.read_rows` and :func:`msbench.tables.write_rows` take one of these: no
table is read or written without its declaration. A test runs the demo and checks that every
CSV and JSON Lines file under ``results/`` (the review site and the exports apart: they have
their own formats) is one of these, with these columns. ``{source}``, ``{system}``,
``{batch}`` and ``{batches}`` stand for one path part.

One file name means one table: a system's scores per unit are ``unit_scores.csv``, not the
``units.csv`` of the inference units (:data:`RENAMED` lists the names before, which are still
read, with a note).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from msbench import columns as c
from msbench.rows import BenchmarkRow, RecordingRow, UnitRow, UtteranceRow

Row = TypeVar("Row", covariant=True)
AnyRow = dict[str, Any]


@dataclass(frozen=True)
class Table(Generic[Row]):
    """One table: ``row`` is its row type (a :class:`~typing.TypedDict` of :mod:`msbench.rows`,
    or ``dict`` where its cells are typed by name, :data:`msbench.columns.COLUMN_TYPES`)."""

    path: str
    columns: tuple[str, ...] | None
    stage: str
    what: str
    row: type[Row]

    @property
    def name(self) -> str:
        """The file name: ``benchmark.csv``."""
        return self.path.rsplit("/", 1)[-1]

    def matches(self, path: str) -> bool:
        """Whether a path (relative to the repository) is this table.

        >>> UNITS.matches("results/units/units.csv"), UNIT_SCORES.matches("results/units/units.csv")
        (True, False)
        """
        pattern = re.escape(self.path)
        for field in ("source", "system", "batch", "batches"):
            pattern = pattern.replace(re.escape("{" + field + "}"), r"[^/.]+")
        return re.fullmatch(pattern, path) is not None


def _table(path: str, columns: tuple[str, ...] | None, stage: str, what: str) -> Table[AnyRow]:
    return Table(path, columns, stage, what, dict)


_INGEST = "results/ingest/{source}/"
_FEATURES = "results/features/{source}/"
_BATCH = _FEATURES + "acoustic/{batch}-of-{batches}"
_SYSTEM = "results/evaluation/{system}/"
_COMPARE = "results/evaluation/compare/"  # before the {system} tables: "compare" is no system id

# fmt: off
INGESTED = _table(_INGEST + "recordings.jsonl", None, "ingest", "validated recordings (records.IngestedRecording)")
INGEST_REJECTED = _table(_INGEST + "rejected.jsonl", None, "ingest", "rejections (records.Rejection)")
INTERACTION = _table(_FEATURES + "interaction.jsonl", c.INTERACTION_COLUMNS, "interaction", "speakers, overlap, turn gaps per recording")
SOURCE_UTTERANCES = Table(_FEATURES + "utterances.csv", c.UTTERANCE_COLUMNS, "interaction", "per utterance r_ov", UtteranceRow)
BATCH_ACOUSTIC = _table(_BATCH + ".jsonl", c.ACOUSTIC_COLUMNS, "acoustic", "model features of one batch")
BATCH_REJECTED = _table(_BATCH + ".rejected.jsonl", None, "acoustic", "rejections of one batch")
BATCH_SIMILARITY = _table(_BATCH + ".similarity.jsonl", None, "acoustic", "CAM++ similarity matrices of one batch")
ACOUSTIC = _table(_FEATURES + "acoustic.jsonl", c.ACOUSTIC_COLUMNS, "gather", "a source's batches joined")
ACOUSTIC_REJECTED = _table(_FEATURES + "acoustic.rejected.jsonl", None, "gather", "a source's batch rejections joined")
ACOUSTIC_SIMILARITY = _table(_FEATURES + "acoustic.similarity.jsonl", None, "gather", "a source's similarity matrices joined")
CHARACTERIZED = _table("results/features/characterized.jsonl", None, "collect", "every characterized recording (all feature columns)")
REJECTED = _table("results/manifests/rejected.csv", c.REJECTED_COLUMNS, "collect", "recordings left out, with stage, code, file, reason")
UTTERANCES = Table("results/manifests/utterances.csv", c.UTTERANCE_COLUMNS, "collect", "reference utterances with r_ov", UtteranceRow)
SIMILARITY = _table("results/manifests/speaker_similarity.jsonl", None, "collect", "per recording, the CAM++ matrix")
LABELLED = _table("results/benchmark/labelled.jsonl", None, "bin", "characterized recordings with their range labels")
POOL_EXCLUDED = _table("results/benchmark/pool_excluded.jsonl", c.POOL_EXCLUDED_COLUMNS, "pool", "recordings left out of the pool")
CANDIDATES = _table("results/manifests/candidate_pool.csv", c.CANDIDATE_COLUMNS, "pool", "the pool, with C, M, D, R, U")
BENCHMARK = Table("results/manifests/benchmark.csv", c.BENCHMARK_COLUMNS, "select", "the selected recordings", BenchmarkRow)
METADATA = _table("results/manifests/metadata.jsonl", c.OFFICIAL_FIELDS, "select", "the selection in the release's schema")
RECORDINGS = Table("results/manifests/recordings.csv", None, "overview", "every characterized recording (columns: msbench.columns.recordings_columns)", RecordingRow)
UNITS = Table("results/units/units.csv", c.UNIT_COLUMNS, "units", "the inference units", UnitRow)
LEADERBOARD_VIEWS = _table("results/evaluation/leaderboard_views.csv", c.LEADERBOARD_VIEW_COLUMNS, "leaderboard", "every view (release, common, penalised) with intervals and rank groups")
COMPARE_PAIRS = _table(_COMPARE + "pairs.csv", c.COMPARE_PAIR_COLUMNS, "compare", "every pair of systems, metric and group: difference, interval, tests")
COMPARE_TABLE2 = _table(_COMPARE + "table2_pairs.csv", c.COMPARE_TABLE2_COLUMNS, "compare", "every pair of systems' Table 2 effects, B - A")
UNIT_SCORES = _table(_SYSTEM + "unit_scores.csv", c.UNIT_RESULT_TABLE, "evaluate", "a system's scores per unit")
UTTERANCE_SCORES = _table(_SYSTEM + "utterance_scores.csv", c.UTTERANCE_DIAGNOSIS_COLUMNS, "evaluate", "a system's diagnosis per utterance")
PAIRS = _table(_SYSTEM + "pairs.csv", c.PAIR_COLUMNS, "evaluate", "a system's speaker confusions")
PENALTY_SCORES = _table(_SYSTEM + "penalty_scores.csv", c.UNIT_RESULT_TABLE, "evaluate", "the empty hypothesis's scores of each excluded unit (the penalised view)")
RECORDING_SCORES = _table(_SYSTEM + "recording_scores.csv", c.RECORDING_RESULT_COLUMNS, "evaluate", "a system's scores per recording")
LEADERBOARD = _table("results/evaluation/leaderboard.csv", c.LEADERBOARD_COLUMNS, "leaderboard", "one row per system")
BY_CONDITION = _table("results/evaluation/by_condition.csv", c.CONDITION_COLUMNS, "leaderboard", "scores per condition range")
TABLE2 = _table("results/evaluation/table2.csv", c.TABLE2_COLUMNS, "table2", "MS-Bench's Table 2")
PROBE_ITEMS = _table("results/probes/items.jsonl", None, "probes", "probe items (fields: msbench.probes.generate.item_row)")
HEAR_ITEMS = _table("results/probes/hear.jsonl", None, "probes", "HEAR's fields (msbench.probes.hear.HEAR_FIELDS)")
HEAR_INPUT = _table("results/probes/hear_input.jsonl", None, "probes", "HEAR's runner input (msbench.probes.hear.RUNNER_FIELDS)")
AUDIT = _table("results/audit/audit.csv", c.COMPARISON_COLUMNS, "audit", "the rebuild against the release")
AUDIT_SUMMARY = _table("results/audit/audit_summary.csv", None, "audit", "per axis agreement")
RELEASE_METADATA = _table("<release>/metadata.jsonl", c.OFFICIAL_FIELDS, "(input)", "the official release's metadata (config release:), read by the audit")
ANY_RECORDINGS = _table("<any table of recordings>", ("recording_id",), "(input)", "benchmark.csv, recordings.csv, a release's metadata.jsonl, or your own with the release's field names")
KEPT = _table("<kept recordings>", ("recording_id",), "(input)", "recordings a replacement keeps: a previous benchmark.csv, or any table with recording_id")
# fmt: on

CATALOG: tuple[Table[Any], ...] = (
    INGESTED,
    INGEST_REJECTED,
    INTERACTION,
    SOURCE_UTTERANCES,
    BATCH_ACOUSTIC,
    BATCH_REJECTED,
    BATCH_SIMILARITY,
    ACOUSTIC,
    ACOUSTIC_REJECTED,
    ACOUSTIC_SIMILARITY,
    CHARACTERIZED,
    REJECTED,
    UTTERANCES,
    SIMILARITY,
    LABELLED,
    POOL_EXCLUDED,
    CANDIDATES,
    BENCHMARK,
    METADATA,
    RECORDINGS,
    UNITS,
    LEADERBOARD_VIEWS,
    COMPARE_PAIRS,
    COMPARE_TABLE2,
    UNIT_SCORES,
    UTTERANCE_SCORES,
    PAIRS,
    PENALTY_SCORES,
    RECORDING_SCORES,
    LEADERBOARD,
    BY_CONDITION,
    TABLE2,
    PROBE_ITEMS,
    HEAR_ITEMS,
    HEAR_INPUT,
    AUDIT,
    AUDIT_SUMMARY,
    RELEASE_METADATA,
    ANY_RECORDINGS,
    KEPT,
)

#: A system's evaluation document (not a table): ratios of sums over the benchmark.
SCORE_SUMMARY = "score_summary.json"
#: The probe set's counts, drops and text-only baselines (a document, not a table).
PROBE_SUMMARY = "probe_summary.json"

#: Per-system files renamed so that one file name means one table: the name now -> the name
#: before (msbench 0.1). An evaluation folder written before is still read, with a note.
RENAMED = {
    UNIT_SCORES.name: "units.csv",
    UTTERANCE_SCORES.name: "utterances.csv",
    RECORDING_SCORES.name: "recordings.csv",
    SCORE_SUMMARY: "summary.json",
}


def table_of(path: str) -> Table[Any] | None:
    """The declared table a path under ``results/`` is, if any."""
    return next((table for table in CATALOG if table.matches(path)), None)


def joined_batches(path: Path) -> tuple[Table[AnyRow], Table[AnyRow]]:
    """The table a source's joined batch file is, and the table of its parts, by its name.

    >>> [t.name for t in joined_batches(Path("acoustic.rejected.jsonl"))]
    ['acoustic.rejected.jsonl', '{batch}-of-{batches}.rejected.jsonl']
    """
    for joined, part in (
        (ACOUSTIC_REJECTED, BATCH_REJECTED),
        (ACOUSTIC_SIMILARITY, BATCH_SIMILARITY),
    ):
        if path.name.endswith(joined.name.removeprefix("acoustic")):
            return joined, part
    return ACOUSTIC, BATCH_ACOUSTIC


def system_file(folder: Path, name: str) -> Path:
    """A file of a system's evaluation folder; in a folder written before the renames
    (:data:`RENAMED`), the file under its old name, with a note saying so."""
    path = folder / name
    old = folder / RENAMED.get(name, name)
    if not path.exists() and old.exists() and old != path:
        print(
            f"msbench: note: {old} has the name msbench 0.1 gave it; read as {name} "
            f"(rerun `msbench evaluate` to write {name}; the old name is read until msbench 0.3)",
            file=sys.stderr,
        )
        return old
    return path
