"""Every table the workflow writes under ``results/``, declared once: where it lives, its columns
(from :mod:`msbench.columns`; ``None`` for a document whose fields vary or are declared where it
is made), and the stage that writes it.

A test runs the demo and checks that every CSV and JSON Lines file under ``results/`` (the
review site and the exports apart: they have their own formats) is one of these, with these
columns. ``{source}``, ``{system}``, ``{batch}`` and ``{batches}`` stand for one path part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from msbench import columns as c


@dataclass(frozen=True)
class Table:
    path: str
    columns: tuple[str, ...] | None
    stage: str
    what: str

    def matches(self, path: str) -> bool:
        """Whether a path (relative to the repository) is this table.

        >>> CATALOG_BY_PATH["results/units/units.csv"].matches("results/units/units.csv")
        True
        """
        pattern = re.escape(self.path)
        for field in ("source", "system", "batch", "batches"):
            pattern = pattern.replace(re.escape("{" + field + "}"), r"[^/.]+")
        return re.fullmatch(pattern, path) is not None


CATALOG: tuple[Table, ...] = (
    Table("results/ingest/{source}/recordings.jsonl", None, "ingest", "validated recordings (records.IngestedRecording)"),
    Table("results/ingest/{source}/rejected.jsonl", None, "ingest", "rejections (records.Rejection)"),
    Table("results/features/{source}/interaction.jsonl", c.INTERACTION_COLUMNS, "interaction", "speakers, overlap, turn gaps per recording"),
    Table("results/features/{source}/utterances.csv", c.UTTERANCE_COLUMNS, "interaction", "per utterance r_ov"),
    Table("results/features/{source}/acoustic/{batch}-of-{batches}.jsonl", c.ACOUSTIC_COLUMNS, "acoustic", "model features of one batch"),
    Table("results/features/{source}/acoustic/{batch}-of-{batches}.rejected.jsonl", None, "acoustic", "rejections of one batch"),
    Table("results/features/{source}/acoustic/{batch}-of-{batches}.similarity.jsonl", None, "acoustic", "CAM++ similarity matrices of one batch"),
    Table("results/features/{source}/acoustic.jsonl", c.ACOUSTIC_COLUMNS, "gather", "a source's batches joined"),
    Table("results/features/{source}/acoustic.rejected.jsonl", None, "gather", "a source's batch rejections joined"),
    Table("results/features/{source}/acoustic.similarity.jsonl", None, "gather", "a source's similarity matrices joined"),
    Table("results/features/characterized.jsonl", None, "collect", "every characterized recording (all feature columns)"),
    Table("results/manifests/rejected.csv", c.REJECTED_COLUMNS, "collect", "recordings left out, with stage, code, file, reason"),
    Table("results/manifests/utterances.csv", c.UTTERANCE_COLUMNS, "collect", "reference utterances with r_ov"),
    Table("results/manifests/speaker_similarity.jsonl", None, "collect", "per recording, the CAM++ matrix"),
    Table("results/benchmark/labelled.jsonl", None, "bin", "characterized recordings with their range labels"),
    Table("results/benchmark/pool_excluded.jsonl", c.POOL_EXCLUDED_COLUMNS, "pool", "recordings left out of the pool"),
    Table("results/manifests/candidate_pool.csv", c.CANDIDATE_COLUMNS, "pool", "the pool, with C, M, D, R, U"),
    Table("results/manifests/benchmark.csv", c.BENCHMARK_COLUMNS, "select", "the selected recordings"),
    Table("results/manifests/metadata.jsonl", c.OFFICIAL_FIELDS, "select", "the selection in the release's schema"),
    Table("results/manifests/recordings.csv", None, "overview", "every characterized recording (columns: msbench.columns.recordings_columns)"),
    Table("results/units/units.csv", c.UNIT_COLUMNS, "units", "the inference units"),
    Table("results/evaluation/{system}/units.csv", c.UNIT_RESULT_TABLE, "evaluate", "a system's scores per unit"),
    Table("results/evaluation/{system}/utterances.csv", c.UTTERANCE_DIAGNOSIS_COLUMNS, "evaluate", "a system's diagnosis per utterance"),
    Table("results/evaluation/{system}/pairs.csv", c.PAIR_COLUMNS, "evaluate", "a system's speaker confusions"),
    Table("results/evaluation/{system}/recordings.csv", c.RECORDING_RESULT_COLUMNS, "evaluate", "a system's scores per recording"),
    Table("results/evaluation/leaderboard.csv", c.LEADERBOARD_COLUMNS, "leaderboard", "one row per system"),
    Table("results/evaluation/by_condition.csv", c.CONDITION_COLUMNS, "leaderboard", "scores per condition range"),
    Table("results/evaluation/table2.csv", c.TABLE2_COLUMNS, "table2", "MS-Bench's Table 2"),
    Table("results/probes/items.jsonl", None, "probes", "probe items (fields: msbench.probes.generate.item_row)"),
    Table("results/probes/hear.jsonl", None, "probes", "HEAR's fields (msbench.probes.hear.HEAR_FIELDS)"),
    Table("results/probes/hear_input.jsonl", None, "probes", "HEAR's runner input (msbench.probes.hear.RUNNER_FIELDS)"),
    Table("results/audit/audit.csv", c.COMPARISON_COLUMNS, "audit", "the rebuild against the release"),
    Table("results/audit/audit_summary.csv", None, "audit", "per axis agreement"),
)  # fmt: skip

CATALOG_BY_PATH = {table.path: table for table in CATALOG}


def table_of(path: str) -> Table | None:
    """The declared table a path under ``results/`` is, if any."""
    return next((table for table in CATALOG if table.matches(path)), None)
