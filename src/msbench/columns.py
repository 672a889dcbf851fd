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


def names(text: str) -> tuple[str, ...]:
    """Column names written as one string, as they appear in the table's header.

    >>> names("system unit_id recording_id")
    ('system', 'unit_id', 'recording_id')
    """
    return tuple(text.split())


#: The official MS-Bench release's identity fields, first in every table msbench writes.
IDENTITY_FIELDS = columns_of(IdentityRow)
#: The release's feature fields, one per axis P, O, S, T, N.
FEATURE_FIELDS = (
    *names("num_speakers overlap_ratio speaker_similarity_max speaker_switch_q25"),
    *names("noise_difficulty"),
)
OFFICIAL_FIELDS = (*IDENTITY_FIELDS, "conditions", *FEATURE_FIELDS)

INTERACTION_COLUMNS = (
    *IDENTITY_FIELDS,
    *names("num_speakers overlap_ratio speaker_switch_q25 speech_duration_seconds"),
    *names("overlap_duration_seconds overlap_ratio_of_speech max_concurrent_speakers"),
    *names("num_speaker_switches num_segments scored_spans audio_path channel sample_rate"),
    *names("num_channels annotation_file ingest_notes"),
)
UTTERANCE_COLUMNS = columns_of(UtteranceRow)
ACOUSTIC_COLUMNS = (
    *names("recording_id speaker_similarity_max dnsmos_sig dnsmos_bak dnsmos_ovrl"),
    *names("dnsmos_p808 dnsmos_windows nisqa_mos nisqa_noi nisqa_dis nisqa_col nisqa_loud"),
    *names("nisqa_chunks similarity_speakers similarity_low_support_speakers"),
    *names("clipping_fraction source_sample_rate acoustic_notes integrity_flags"),
)
REJECTED_COLUMNS = ("recording_id", "source_dataset", "stage", "code", "file", "reason")

_LABELLED_FIRST = columns_of(LabelledRow)
UTILITY_COLUMNS = ("C", "M", "D", "R", "U")
CANDIDATE_COLUMNS = (*_LABELLED_FIRST, *UTILITY_COLUMNS, "conditions")
BENCHMARK_COLUMNS = columns_of(BenchmarkRow)
RECORDING_STATUS_COLUMNS = (
    *names("eligible ineligible_codes ineligible_reasons words ingest_notes in_pool"),
    *names("pool_code pool_reason selected"),
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
    *names("s i_lex i_seg d_lex d_seg n_ref utterances utterances_attributable"),
    *names("utterances_misattributed ov_boundaries ov_boundaries_localised"),
)
DIAGNOSTIC_SECONDS_COLUMNS = (
    *names("t_ref t_hyp ov_seconds ov_covered ov_speaker_seconds ov_speaker_covered"),
)
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
    *names("system unit_id recording_id start end status reason degradation"),
    *SCORE_RATE_COLUMNS,
    *names("ref_speakers hyp_speakers no_speaker_labels notes"),
)
#: The inference units manifest (results/units/units.csv): what a system's outputs are scored on.
UNIT_COLUMNS = columns_of(UnitRow)
#: Per-utterance diagnostics (results/evaluation/<system>/utterances.csv).
UTTERANCE_DIAGNOSIS_COLUMNS = (
    *names("system unit_id recording_id speaker start_time end_time overlap_exposure"),
    *names("switch_distance n_ref s i_lex i_seg d_lex d_seg aligned hyp_speaker"),
    *names("attributed_to attributable misattributed"),
)
#: Aligned tokens per ordered speaker pair (results/evaluation/<system>/pairs.csv).
PAIR_COLUMNS = (
    *names("system unit_id recording_id ref_speaker attributed_to tokens tokens_clean"),
)
#: The scores of a unit (units.csv): its facts, then every count.
UNIT_RESULT_TABLE = (*UNIT_RESULT_COLUMNS, *SCORE_COUNT_COLUMNS)
#: How many units a sum covers, how many were excluded, how many softly degraded.
UNIT_COUNT_COLUMNS = ("units", "excluded", "soft_degradation", "units_without_speakers")
#: The scores of a recording (recordings.csv of a system): labels, unit counts, rates, counts.
RECORDING_RESULT_COLUMNS = (
    *names("system recording_id"),
    *AXES,
    *UNIT_COUNT_COLUMNS,
    *SCORE_RATE_COLUMNS,
    *SCORE_COUNT_COLUMNS,
)
#: The leaderboard: the release's layout first (its metrics, excluded, soft_degradation), then
#: the other DER and WER rates, the macro means and every raw sum.
LEADERBOARD_COLUMNS = (
    *names("system_id system"),
    *(m.name for m in METRICS if m.release),
    *names("excluded soft_degradation units units_without_speakers"),
    *(m.name for m in METRICS if not m.release and m.family != "diagnosis"),
    *(f"{k}_macro" for k in SCORE_RATE_COLUMNS),
    *SCORE_COUNT_COLUMNS,
)
#: The leading leaderboard columns the markdown table shows (ids, rates, unit counts).
LEADERBOARD_SHOWN = LEADERBOARD_COLUMNS[
    : LEADERBOARD_COLUMNS.index("units_without_speakers")
    + 1
    + sum(1 for m in METRICS if not m.release and m.family != "diagnosis")
]
#: Every metric per condition range, source, language and scenario (by_condition.csv).
CONDITION_COLUMNS = (
    *names("system group value"),
    *UNIT_COUNT_COLUMNS,
    *SCORE_RATE_COLUMNS,
    *SCORE_COUNT_COLUMNS,
)
#: Table 2: systems x analyses (table2.csv).
TABLE2_COLUMNS = (
    *names("system_id system analysis label unit value low high significant headline"),
    *names("defined_resamples"),
)
#: The rates two systems are compared on (msbench.metrics.COMPARED).
COMPARE_METRICS = tuple(m.name for m in COMPARED)
#: The leaderboard's views with intervals (leaderboard_views.csv, msbench.comparison.views).
LEADERBOARD_VIEW_COLUMNS = (
    *names("view system_id system rank_group units_scored excluded"),
    *(f"{m}{end}" for m in COMPARE_METRICS for end in ("", "_low", "_high")),
    *names("worst_unit worst_unit_metric worst_unit_rate"),
)
#: One pair of systems, one metric, one group (compare/pairs.csv, msbench.comparison.pairs).
COMPARE_PAIR_COLUMNS = (
    *names("system_a system_b metric group role units recordings rate_a rate_b difference low"),
    *names("high p_better p_tie p_worse test p_value p_adjusted significant verdict"),
    "defined_resamples",
)
#: One pair of systems, one Table 2 series (compare/table2_pairs.csv).
COMPARE_TABLE2_COLUMNS = (
    *names("system_a system_b analysis label unit value_a value_b difference low high"),
    *names("significant defined_resamples"),
)
#: A rebuild against the release, per recording and axis (audit.csv).
COMPARISON_COLUMNS = (
    *names("recording_id axis field published rebuilt abs_diff rel_diff value_agrees"),
    *names("published_label rebuilt_label label_agrees"),
)
#: msbench describe --summary, one line per session.
SUMMARY_COLUMNS = (
    *names("file session_id duration_seconds num_speakers overlap_ratio speaker_switch_q25"),
    *names("num_segments rejected"),
)
_SCORING_FLOAT = (
    *(c for m in METRICS if m.unit == "seconds" for c in (*m.statistics, *m.parts)),
    *SCORE_RATE_COLUMNS,
    *(f"{k}_macro" for k in SCORE_RATE_COLUMNS),
    *names("start end"),
    *DIAGNOSTIC_SECONDS_COLUMNS,
    *names("switch_distance"),
)
_SCORING_INT = (
    *DIAGNOSTIC_INT_COLUMNS,
    *names("aligned tokens tokens_clean"),
    *(c for m in METRICS if m.unit != "seconds" for c in (*m.statistics, *m.parts)),
    *names("ref_speakers hyp_speakers units excluded soft_degradation units_without_speakers"),
)
_SCORING_TEXT = (
    *names("system system_id unit_id status degradation group value hyp_speaker"),
    *names("attributed_to ref_speaker notes"),
)

_TEXT = (
    *names("recording_id source_dataset language scenario recording_device session_id"),
    *names("speaker audio_path annotation_file stage code file reason profile"),
    *AXES,
    *names("replaces acoustic_notes integrity_flags ineligible_codes ineligible_reasons"),
    *names("words ingest_notes pool_code pool_reason"),
)
_INT = (
    *names("num_speakers max_concurrent_speakers num_speaker_switches num_segments channel"),
    *names("sample_rate num_channels dnsmos_windows nisqa_chunks similarity_speakers"),
    *names("similarity_low_support_speakers source_sample_rate"),
)
_FLOAT = (
    *names("duration_seconds overlap_ratio speaker_similarity_max speaker_switch_q25"),
    *names("noise_difficulty speech_duration_seconds overlap_duration_seconds"),
    *names("overlap_ratio_of_speech start_time end_time overlap_exposure dnsmos_sig"),
    *names("dnsmos_bak dnsmos_ovrl dnsmos_p808 nisqa_mos nisqa_noi nisqa_dis nisqa_col"),
    *names("nisqa_loud clipping_fraction quality_rank_dnsmos quality_rank_nisqa"),
    *UTILITY_COLUMNS,
)
_BOOL = (
    *names("eligible in_pool selected attributable misattributed significant"),
    "no_speaker_labels",
)
_COMPARE_TEXT = (
    *names("view rank_group system_a system_b metric test analysis label unit role verdict"),
    *names("worst_unit worst_unit_metric"),
)
_COMPARE_INT = ("units_scored", "recordings", "defined_resamples")
_COMPARE_FLOAT = (
    *names("rate_a rate_b value_a value_b difference low high p_better p_tie p_worse"),
    *names("p_value p_adjusted worst_unit_rate"),
    *(f"{m}_{end}" for m in COMPARE_METRICS for end in ("low", "high")),
)
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
