"""Every manifest's columns and their types, defined once.

Writers take their column order from here; :func:`msbench.tables.read_rows`
parses CSV cells by the declared type of their column (never by guessing), so
an id such as ``001`` stays text and a missing value is ``None``. A column no
table declares is read as text. The manifests whose rows travel between
stages (benchmark, units, utterances, and the identity and labels of every
recording table) are typed rows in :mod:`msbench.rows`: their columns and
types come from there, and :func:`msbench.tables.read_rows` parses each by
its own table's types.

Official MS-Bench release fields come first in every table, with the release's
names (``recording_id ... duration_seconds``, then the five features).
"""

from __future__ import annotations

from typing import Any

from msbench.metrics import COMPARED, METRICS, WER_COUNTS
from msbench.rows import (
    BenchmarkRow,
    IdentityRow,
    LabelledRow,
    UnitRow,
    UtteranceRow,
    columns_of,
)

AXES = ("P", "O", "S", "T", "N")

#: The official MS-Bench release's identity fields, first in every table msbench writes.
IDENTITY_FIELDS = columns_of(IdentityRow)
#: The release's feature fields, one per axis P, O, S, T, N.
FEATURE_FIELDS = (
    "num_speakers",
    "overlap_ratio",
    "speaker_similarity_max",
    "speaker_switch_q25",
    "noise_difficulty",
)
OFFICIAL_FIELDS = (*IDENTITY_FIELDS, "conditions", *FEATURE_FIELDS)

INTERACTION_COLUMNS = (
    *IDENTITY_FIELDS,
    "num_speakers",
    "overlap_ratio",
    "speaker_switch_q25",
    "speech_duration_seconds",
    "overlap_duration_seconds",
    "overlap_ratio_of_speech",
    "max_concurrent_speakers",
    "num_speaker_switches",
    "num_segments",
    "scored_spans",
    "audio_path",
    "channel",
    "sample_rate",
    "num_channels",
    "annotation_file",
    "ingest_notes",
)
UTTERANCE_COLUMNS = columns_of(UtteranceRow)
ACOUSTIC_COLUMNS = (
    "recording_id",
    "speaker_similarity_max",
    "dnsmos_sig",
    "dnsmos_bak",
    "dnsmos_ovrl",
    "dnsmos_p808",
    "dnsmos_windows",
    "nisqa_mos",
    "nisqa_noi",
    "nisqa_dis",
    "nisqa_col",
    "nisqa_loud",
    "nisqa_chunks",
    "similarity_speakers",
    "similarity_low_support_speakers",
    "clipping_fraction",
    "source_sample_rate",
    "acoustic_notes",
    "integrity_flags",
)
REJECTED_COLUMNS = ("recording_id", "source_dataset", "stage", "code", "file", "reason")

_LABELLED_FIRST = columns_of(LabelledRow)
UTILITY_COLUMNS = ("C", "M", "D", "R", "U")
CANDIDATE_COLUMNS = (*_LABELLED_FIRST, *UTILITY_COLUMNS, "conditions")
BENCHMARK_COLUMNS = columns_of(BenchmarkRow)
RECORDING_STATUS_COLUMNS = (
    "eligible",
    "ineligible_codes",
    "ineligible_reasons",
    "words",
    "ingest_notes",
    "in_pool",
    "pool_code",
    "pool_reason",
    "selected",
)
POOL_EXCLUDED_COLUMNS = ("recording_id", "pool_code", "pool_reason")

#: Scoring counts (msbench.scoring.aggregate): the attributes of a DER and of a WER count.
DER_PARTS = ("missed", "false_alarm", "confusion", "scored")
WER_FAMILY = WER_COUNTS
WER_PARTS = ("errors", "length", "substitutions", "insertions", "deletions")
_DER_WER_COUNT_COLUMNS = tuple(
    column for m in METRICS if m.family in ("der", "wer") for column in (*m.statistics, *m.parts)
)
#: Diagnostics counts (msbench.scoring.diagnosis.unit): tokens, utterances, seconds.
DIAGNOSTIC_INT_COLUMNS = (
    "s", "i_lex", "i_seg", "d_lex", "d_seg", "n_ref",
    "utterances", "utterances_attributable", "utterances_misattributed",
    "ov_boundaries", "ov_boundaries_localised",
)  # fmt: skip
DIAGNOSTIC_SECONDS_COLUMNS = (
    "t_ref", "t_hyp", "ov_seconds", "ov_covered", "ov_speaker_seconds", "ov_speaker_covered",
)  # fmt: skip
_LISTED_COUNTS = (*_DER_WER_COUNT_COLUMNS, *DIAGNOSTIC_INT_COLUMNS, *DIAGNOSTIC_SECONDS_COLUMNS)
#: Every count a unit's scores hold: the metrics' statistics and parts (msbench.metrics), then
#: the diagnostics' own; a statistic of a new metric no list names comes last.
SCORE_COUNT_COLUMNS = (
    *_LISTED_COUNTS,
    *dict.fromkeys(
        c for m in METRICS for c in (*m.statistics, *m.parts) if c not in _LISTED_COUNTS
    ),
)
#: One rate column per metric (msbench.metrics.METRICS), in its order.
SCORE_RATE_COLUMNS = tuple(m.name for m in METRICS)
#: One row per inference unit (results/evaluation/<system>/units.csv), before the counts.
UNIT_RESULT_COLUMNS = (
    "system", "unit_id", "recording_id", "start", "end", "status", "reason", "degradation",
    *SCORE_RATE_COLUMNS, "ref_speakers", "hyp_speakers", "notes",
)  # fmt: skip
#: The inference units manifest (results/units/units.csv): what a system's outputs are scored on.
UNIT_COLUMNS = columns_of(UnitRow)
#: Per-utterance diagnostics (results/evaluation/<system>/utterances.csv).
UTTERANCE_DIAGNOSIS_COLUMNS = (
    "system", "unit_id", "recording_id", "speaker", "start_time", "end_time",
    "overlap_exposure", "switch_distance", "n_ref", "s", "i_lex", "i_seg", "d_lex", "d_seg",
    "aligned", "hyp_speaker", "attributed_to", "attributable", "misattributed",
)  # fmt: skip
#: Aligned tokens per ordered speaker pair (results/evaluation/<system>/pairs.csv).
PAIR_COLUMNS = (
    "system", "unit_id", "recording_id", "ref_speaker", "attributed_to", "tokens", "tokens_clean",
)  # fmt: skip
#: The scores of a unit (units.csv): its facts, then every count.
UNIT_RESULT_TABLE = (*UNIT_RESULT_COLUMNS, *SCORE_COUNT_COLUMNS)
#: How many units a sum covers, how many were excluded, how many softly degraded.
UNIT_COUNT_COLUMNS = ("units", "excluded", "soft_degradation")
#: The scores of a recording (recordings.csv of a system): labels, unit counts, rates, counts.
RECORDING_RESULT_COLUMNS = (
    "system", "recording_id", *AXES, *UNIT_COUNT_COLUMNS, *SCORE_RATE_COLUMNS, *SCORE_COUNT_COLUMNS,
)  # fmt: skip
#: The leaderboard: the release's layout first (its metrics, excluded, soft_degradation), then
#: the other DER and WER rates, the macro means and every raw sum.
LEADERBOARD_COLUMNS = (
    "system_id", "system", *(m.name for m in METRICS if m.release), "excluded", "soft_degradation",
    "units", *(m.name for m in METRICS if not m.release and m.family != "diagnosis"),
    *(f"{k}_macro" for k in SCORE_RATE_COLUMNS), *SCORE_COUNT_COLUMNS,
)  # fmt: skip
#: The leading leaderboard columns the markdown table shows (ids, rates, unit counts).
LEADERBOARD_SHOWN = LEADERBOARD_COLUMNS[
    : LEADERBOARD_COLUMNS.index("units")
    + 1
    + sum(1 for m in METRICS if not m.release and m.family != "diagnosis")
]
#: Every metric per condition range, source, language and scenario (by_condition.csv).
CONDITION_COLUMNS = (
    "system",
    "group",
    "value",
    *UNIT_COUNT_COLUMNS,
    *SCORE_RATE_COLUMNS,
    *SCORE_COUNT_COLUMNS,
)
#: Table 2: systems x analyses (table2.csv).
TABLE2_COLUMNS = (
    "system_id", "system", "analysis", "label", "unit", "value", "low", "high",
    "significant", "headline", "defined_resamples",
)  # fmt: skip
#: The rates two systems are compared on (msbench.metrics.COMPARED).
COMPARE_METRICS = tuple(m.name for m in COMPARED)
#: The leaderboard's views with intervals (leaderboard_views.csv, msbench.comparison.views).
LEADERBOARD_VIEW_COLUMNS = (
    "view", "system_id", "system", "rank_group", "units_scored", "excluded",
    *(f"{m}{end}" for m in COMPARE_METRICS for end in ("", "_low", "_high")),
)  # fmt: skip
#: One pair of systems, one metric, one group (compare/pairs.csv, msbench.comparison.pairs).
COMPARE_PAIR_COLUMNS = (
    "system_a", "system_b", "metric", "group", "units", "recordings", "rate_a", "rate_b",
    "difference", "low", "high", "p_improvement", "test", "p_value", "p_holm", "significant",
    "defined_resamples",
)  # fmt: skip
#: One pair of systems, one Table 2 series (compare/table2_pairs.csv).
COMPARE_TABLE2_COLUMNS = (
    "system_a", "system_b", "analysis", "label", "unit", "value_a", "value_b", "difference",
    "low", "high", "significant", "defined_resamples",
)  # fmt: skip
#: A rebuild against the release, per recording and axis (audit.csv).
COMPARISON_COLUMNS = (
    "recording_id",
    "axis",
    "field",
    "published",
    "rebuilt",
    "abs_diff",
    "rel_diff",
    "value_agrees",
    "published_label",
    "rebuilt_label",
    "label_agrees",
)
#: msbench describe --summary, one line per session.
SUMMARY_COLUMNS = (
    "file",
    "session_id",
    "duration_seconds",
    "num_speakers",
    "overlap_ratio",
    "speaker_switch_q25",
    "num_segments",
    "rejected",
)
_SCORING_FLOAT = (
    *(c for m in METRICS if m.unit == "seconds" for c in (*m.statistics, *m.parts)),
    *SCORE_RATE_COLUMNS,
    *(f"{k}_macro" for k in SCORE_RATE_COLUMNS),
    "start",
    "end",
    *DIAGNOSTIC_SECONDS_COLUMNS,
    "switch_distance",
)
_SCORING_INT = (
    *DIAGNOSTIC_INT_COLUMNS,
    "aligned",
    "tokens",
    "tokens_clean",
    *(c for m in METRICS if m.unit != "seconds" for c in (*m.statistics, *m.parts)),
    "ref_speakers",
    "hyp_speakers",
    "units",
    "excluded",
    "soft_degradation",
)
_SCORING_TEXT = (
    "system", "system_id", "unit_id", "status", "degradation", "group", "value",
    "hyp_speaker", "attributed_to", "ref_speaker", "notes",
)  # fmt: skip

_TEXT = (
    "recording_id",
    "source_dataset",
    "language",
    "scenario",
    "recording_device",
    "session_id",
    "speaker",
    "audio_path",
    "annotation_file",
    "stage",
    "code",
    "file",
    "reason",
    "profile",
    *AXES,
    "replaces",
    "acoustic_notes",
    "integrity_flags",
    "ineligible_codes",
    "ineligible_reasons",
    "words",
    "ingest_notes",
    "pool_code",
    "pool_reason",
)
_INT = (
    "num_speakers",
    "max_concurrent_speakers",
    "num_speaker_switches",
    "num_segments",
    "channel",
    "sample_rate",
    "num_channels",
    "dnsmos_windows",
    "nisqa_chunks",
    "similarity_speakers",
    "similarity_low_support_speakers",
    "source_sample_rate",
)
_FLOAT = (
    "duration_seconds",
    "overlap_ratio",
    "speaker_similarity_max",
    "speaker_switch_q25",
    "noise_difficulty",
    "speech_duration_seconds",
    "overlap_duration_seconds",
    "overlap_ratio_of_speech",
    "start_time",
    "end_time",
    "overlap_exposure",
    "dnsmos_sig",
    "dnsmos_bak",
    "dnsmos_ovrl",
    "dnsmos_p808",
    "nisqa_mos",
    "nisqa_noi",
    "nisqa_dis",
    "nisqa_col",
    "nisqa_loud",
    "clipping_fraction",
    "quality_rank_dnsmos",
    "quality_rank_nisqa",
    *UTILITY_COLUMNS,
)
_BOOL = ("eligible", "in_pool", "selected", "attributable", "misattributed", "significant")
_COMPARE_TEXT = (
    "view",
    "rank_group",
    "system_a",
    "system_b",
    "metric",
    "test",
    "analysis",
    "label",
    "unit",
)
_COMPARE_INT = ("units_scored", "recordings", "defined_resamples")
_COMPARE_FLOAT = (
    "rate_a", "rate_b", "value_a", "value_b", "difference", "low", "high", "p_improvement",
    "p_value", "p_holm", *(f"{m}_{end}" for m in COMPARE_METRICS for end in ("low", "high")),
)  # fmt: skip
_JSON = ("conditions", "scored_spans")

#: Declared type of every column msbench writes: ``str``, ``int``, ``float``, ``bool`` or ``json``.
COLUMN_TYPES: dict[str, str] = {
    **dict.fromkeys(_TEXT, "str"),
    **dict.fromkeys(_SCORING_TEXT, "str"),
    **dict.fromkeys(_SCORING_INT, "int"),
    **dict.fromkeys(_SCORING_FLOAT, "float"),
    **dict.fromkeys(_INT, "int"),
    **dict.fromkeys(_FLOAT, "float"),
    **dict.fromkeys(_BOOL, "bool"),
    **dict.fromkeys(_COMPARE_TEXT, "str"),
    **dict.fromkeys(_COMPARE_INT, "int"),
    **dict.fromkeys(_COMPARE_FLOAT, "float"),
    **dict.fromkeys(_JSON, "json"),
}


def parse_cell(column: str, text: str, kind: str | None = None) -> Any:
    """A CSV cell as its column's declared type (or ``kind``); the empty cell is ``None``.

    >>> parse_cell("recording_id", "001"), parse_cell("num_speakers", "4")
    ('001', 4)
    >>> parse_cell("eligible", "false"), parse_cell("speaker_switch_q25", "")
    (False, None)
    """
    import json

    if text == "":
        return None
    kind = kind or COLUMN_TYPES.get(column, "str")
    if kind == "int":
        return int(text)
    if kind == "float":
        return float(text)
    if kind == "bool":
        if text not in ("true", "false"):
            raise ValueError(f"column {column}: expected true or false, got {text!r}")
        return text == "true"
    if kind == "json":
        return json.loads(text)
    return text


def recordings_columns(extra: list[str]) -> tuple[str, ...]:
    """recordings.csv: official fields, then every other feature column, then the status."""
    middle = [
        c
        for c in extra
        if c not in _LABELLED_FIRST and c not in RECORDING_STATUS_COLUMNS and c != "conditions"
    ]
    return (*_LABELLED_FIRST, *middle, *RECORDING_STATUS_COLUMNS)
