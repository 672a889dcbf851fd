"""Every diagnostic of one inference unit: per utterance, per speaker pair, and unit counts.

:func:`diagnose_unit` runs the two word alignments
(:mod:`msbench.scoring.diagnosis.alignment`), classifies the errors
(:mod:`~msbench.scoring.diagnosis.decomposition`), attributes the utterances
(:mod:`~msbench.scoring.diagnosis.speaker_attribution`) and measures the time-based checks
(:mod:`~msbench.scoring.diagnosis.regions`). Each utterance's ``overlap_exposure``
(``r_ov``) and ``switch_distance`` are measured against the unit's own
reference timeline. ``r_time = T_hyp / T_ref``: seconds of hypothesised speech
(union over speakers) over seconds of reference speech.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from msbench.metrics import BY_NAME
from msbench.records import Segment
from msbench.scoring.diagnosis.alignment import Pair, agnostic_alignment, align_words
from msbench.scoring.diagnosis.decomposition import KINDS, classify
from msbench.scoring.diagnosis.regions import OverlapChecks, overlap_checks, switch_distance
from msbench.scoring.diagnosis.speaker_attribution import (
    Attribution,
    attribute,
    confusion_counts,
    mapping_of,
)
from msbench.scoring.matching.words import SideWords, unit_words
from msbench.scoring.side import Side
from msbench.timeline import SpeakerTimeline, to_micros, to_seconds, total

#: The ``msbench score`` keys this module adds (a contract, like the scoring keys).
DIAGNOSTIC_KEYS = (
    "e_lex",
    "e_seg",
    "e_attr",
    "s",
    "i_lex",
    "i_seg",
    "d_lex",
    "d_seg",
    "n_ref",
    "utterances",
    "utterances_attributable",
    "utterances_misattributed",
    "r_time",
)


@dataclass(frozen=True)
class UtteranceDiagnosis:
    speaker: str
    start_time: float
    end_time: float
    overlap_exposure: float
    switch_distance: float | None  # seconds; None: the unit has no switch
    n_ref: int
    s: int
    i_lex: int
    i_seg: int
    d_lex: int
    d_seg: int
    aligned: int
    hyp_speaker: str | None
    attributed_to: str | None
    misattributed: bool

    @property
    def attributable(self) -> bool:
        return self.hyp_speaker is not None


@dataclass(frozen=True)
class DiagnosticCounts:
    """Summable counts of a unit, recording or system (``+``); rates in :meth:`to_dict`."""

    s: int = 0
    i_lex: int = 0
    i_seg: int = 0
    d_lex: int = 0
    d_seg: int = 0
    n_ref: int = 0
    utterances: int = 0
    utterances_attributable: int = 0
    utterances_misattributed: int = 0
    t_ref: int = 0  # µs
    t_hyp: int = 0  # µs
    checks: OverlapChecks = field(default_factory=lambda: OverlapChecks(0, 0, 0, 0, 0, 0))
    words: bool = True

    def __add__(self, other: DiagnosticCounts) -> DiagnosticCounts:
        values = {
            f.name: getattr(self, f.name) + getattr(other, f.name)
            for f in fields(self)
            if f.name not in ("checks", "words")
        }
        checks = OverlapChecks(
            *(
                a + b
                for a, b in zip(
                    asdict(self.checks).values(), asdict(other.checks).values(), strict=True
                )
            )
        )
        return DiagnosticCounts(**values, checks=checks, words=self.words and other.words)

    def to_dict(self) -> dict[str, Any]:
        """The contract keys (:data:`DIAGNOSTIC_KEYS`), ``t_ref``/``t_hyp`` (s) and the overlap checks."""

        counts = {k: getattr(self, k) for k in DIAGNOSTIC_KEYS[3:12]}
        sums = {**counts, "t_hyp": self.t_hyp, "t_ref": self.t_ref}
        rates = {k: BY_NAME[k].rate(sums) if self.words else None for k in DIAGNOSTIC_KEYS[:3]}
        return {
            **rates,
            **{k: v if self.words else None for k, v in counts.items()},
            "r_time": BY_NAME["r_time"].rate(sums),
            "t_ref": to_seconds(self.t_ref),
            "t_hyp": to_seconds(self.t_hyp),
            "overlap_checks": overlap_check_rates(self.checks),
        }


def overlap_check_rates(checks: OverlapChecks) -> dict[str, Any]:
    def share(num: int, den: int) -> float | None:
        return num / den if den else None

    return {
        "boundaries": checks.ov_boundaries,
        "boundaries_localised": share(checks.ov_boundaries_localised, checks.ov_boundaries),
        "overlap_seconds": to_seconds(checks.ov_time),
        "covered_by_any": share(checks.ov_covered, checks.ov_time),
        "covered_by_correct": share(checks.ov_speaker_covered, checks.ov_speaker_time),
    }


@dataclass(frozen=True)
class UnitDiagnosis:
    utterances: tuple[UtteranceDiagnosis, ...]
    confusion: Mapping[tuple[str, str], int]  # aligned tokens per (ref i, attributed j)
    confusion_clean: Mapping[tuple[str, str], int]  # the same, utterances with r_ov = 0
    counts: DiagnosticCounts
    agnostic: tuple[Pair, ...] = ()  # the speaker-agnostic alignment the decomposition read


#: One side of a unit: its segments, their tokens (None: no words) and their timeline.


def diagnose_unit(
    ref: Side,
    hyp: Side,
    assignment: Sequence[tuple[str | None, str | None]],
    ref_to_hyp: Mapping[str, str],
    settings: Mapping[str, Any],
    agnostic_errors: int | None = None,
    words: tuple[SideWords, SideWords] | None = None,
    alignments: Mapping[str, Any] | None = None,
) -> UnitDiagnosis:
    """All diagnostics of one unit; tokens None: no words on a side (time checks only).

    Each side comes with the timeline scoring built for it (once a unit).
    ``agnostic_errors``: the speaker-agnostic WER's error count, when already known;
    ``words``: both sides' words as the WER family prepared them (else prepared here);
    ``alignments``: ``timed`` and ``tight`` (:func:`~msbench.scoring.diagnosis.alignment.
    tight_alignment`) when the caller computed them (on other threads), with ``agnostic_errors``.
    """
    (reference, ref_tokens, ref_line), (hypothesis, hyp_tokens, hyp_line) = ref, hyp
    assert ref_line is not None and hyp_line is not None  # noqa: S101 - built by score_session
    checks = overlap_checks(ref_line, hyp_line, ref_to_hyp, settings["boundary_tolerance"])
    times = DiagnosticCounts(
        t_ref=total(ref_line.speech()),
        t_hyp=total(hyp_line.speech()),
        checks=checks,
        words=ref_tokens is not None and hyp_tokens is not None,
    )
    if ref_tokens is None or hyp_tokens is None:
        ref, hyp = Side(reference, ref.worded), Side(hypothesis, hyp.worded)
        ref_tokens = ref.worded
    words = words if words is not None else unit_words(ref, hyp)
    if alignments is None:
        timed = align_words(ref, hyp, settings["tcp_collar"], agnostic_errors, words=words)
        pairs = agnostic_alignment(ref, hyp, timed, agnostic_errors, words)
    else:
        timed = alignments["timed"]
        pairs = agnostic_alignment(ref, hyp, timed, agnostic_errors, words,
                                   alignments["tight"], tight_known=True)  # fmt: skip
    edits = classify(
        pairs, ref_line.speech(), hyp_line.speech(), settings["segmentation_tolerance"]
    )
    per_utterance = [Counter[str]() for _ in reference]
    unowned: Counter[str] = Counter()
    for edit in edits:
        (unowned if edit.utterance is None else per_utterance[edit.utterance])[edit.kind] += 1
    mapping = mapping_of(assignment)
    attributions = attribute(timed, [s.speaker for s in reference], mapping)
    rows = _utterance_rows(reference, ref_tokens, ref_line, per_utterance, attributions)
    clean = {k for k, row in enumerate(rows) if row.overlap_exposure == 0}
    counts = times + _word_counts(rows, unowned)
    return UnitDiagnosis(
        tuple(rows),
        confusion_counts(timed, mapping),
        confusion_counts(timed, mapping, clean),
        counts,
        tuple(pairs),
    )


def _word_counts(rows: Sequence[UtteranceDiagnosis], unowned: Counter[str]) -> DiagnosticCounts:
    sums = {kind: sum(getattr(r, kind) for r in rows) + unowned[kind] for kind in KINDS}
    return DiagnosticCounts(
        **sums,
        n_ref=sum(r.n_ref for r in rows),
        utterances=len(rows),
        utterances_attributable=sum(r.attributable for r in rows),
        utterances_misattributed=sum(r.misattributed for r in rows),
    )


def _utterance_rows(
    reference: Sequence[Segment],
    ref_tokens: Sequence[Sequence[str]],
    ref_line: SpeakerTimeline,
    per_utterance: Sequence[Counter[str]],
    attributions: Sequence[Attribution],
) -> list[UtteranceDiagnosis]:
    switches = ref_line.switches()
    rows = []
    for k, utterance in enumerate(reference):
        span = (to_micros(utterance.start_time), to_micros(utterance.end_time))
        distance = switch_distance(span, switches)
        rows.append(
            UtteranceDiagnosis(
                speaker=utterance.speaker,
                start_time=utterance.start_time,
                end_time=utterance.end_time,
                overlap_exposure=ref_line.exposure(
                    utterance.speaker, utterance.start_time, utterance.end_time
                ),
                switch_distance=None if distance is None else to_seconds(distance),
                n_ref=len(ref_tokens[k]),
                **{kind: per_utterance[k][kind] for kind in KINDS},
                aligned=attributions[k].aligned,
                hyp_speaker=attributions[k].hyp_speaker,
                attributed_to=attributions[k].attributed_to,
                misattributed=attributions[k].misattributed,
            )
        )
    return rows
