"""One reference against one hypothesis: every metric per session and in sum (``msbench score``).

The JSON keys are a contract (scripts, the README and tests read them):
``der`` and ``der_collar0`` {``error_rate``, ``missed``, ``false_alarm``,
``confusion``, ``scored`` (s), ``collar`` (half-width, s)}; ``cpwer``,
``tcpwer``, ``wer``, ``tcorcwer`` {``error_rate``, ``errors``, ``length``,
``substitutions``, ``insertions``, ``deletions``}; ``tokenizer`` {name,
version}; the diagnostics (:mod:`msbench.diagnostics.unit`): ``e_lex``,
``e_seg``, ``e_attr``, the counts ``s``, ``i_lex``, ``i_seg``, ``d_lex``,
``d_seg``, ``n_ref``, ``utterances``, ``utterances_attributable``,
``utterances_misattributed``, and ``r_time`` (with ``t_ref``, ``t_hyp`` and
``overlap_checks``); ``sessions``: one entry per session with the same fields.
Rates are fractions. Totals are ratios of sums over sessions (never means of
rates).

Sessions are matched by id; when each side holds exactly one session, they
are one session whatever their ids. Without a UEM, a session's scored span is
``[0, last end of either side)``. A side without any words (RTTM) gives DER
alone: the WER entries are ``null``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from msbench.diagnostics.decomposition import DEFAULT_SEGMENTATION_TOLERANCE
from msbench.diagnostics.regions import DEFAULT_BOUNDARY_TOLERANCE
from msbench.diagnostics.unit import DiagnosticCounts, UnitDiagnosis, diagnose_unit
from msbench.records import Segment
from msbench.scoring.der import DiarizationError, diarization_error, speaker_mapping
from msbench.scoring.tokenizer import describe, tokenize
from msbench.scoring.wer import (
    NO_ERRORS,
    TCP_COLLAR,
    SessionWer,
    session_wer,
    timing_conventions,
)

WER_KEYS = ("cpwer", "tcpwer", "wer", "tcorcwer")
#: The diagnostics' tolerances (s), config ``scoring.segmentation_tolerance`` / ``boundary_tolerance``.
TOLERANCES = {
    "segmentation_tolerance": DEFAULT_SEGMENTATION_TOLERANCE,
    "boundary_tolerance": DEFAULT_BOUNDARY_TOLERANCE,
}


@dataclass(frozen=True)
class Scores:
    """The counts of one session, unit or recording; ``+`` sums them."""

    der: DiarizationError
    der_collar0: DiarizationError
    words: SessionWer | None  # None: no words on a side
    diagnostics: DiagnosticCounts = field(default_factory=DiagnosticCounts)
    detail: UnitDiagnosis | None = field(default=None, compare=False)  # one session's rows

    def to_dict(self, tcp_collar: float = TCP_COLLAR) -> dict[str, Any]:
        out: dict[str, Any] = {"der": self.der.to_dict(), "der_collar0": self.der_collar0.to_dict()}
        for key in WER_KEYS:
            counts = getattr(self.words, key) if self.words else None
            out[key] = counts.to_dict() if counts is not None else None
        if out["tcpwer"] is not None:
            out["tcpwer"].update(timing_conventions(tcp_collar))
        return {**out, **self.diagnostics.to_dict()}


def add_der(a: DiarizationError, b: DiarizationError) -> DiarizationError:
    return replace(
        a,
        missed=a.missed + b.missed,
        false_alarm=a.false_alarm + b.false_alarm,
        confusion=a.confusion + b.confusion,
        scored=a.scored + b.scored,
    )


def add_scores(items: Sequence[Scores]) -> Scores | None:
    """Sums of every count (ratios of sums follow); None for no items."""
    if not items:
        return None
    der, der0 = items[0].der, items[0].der_collar0
    for item in items[1:]:
        der, der0 = add_der(der, item.der), add_der(der0, item.der_collar0)
    worded = [item.words for item in items if item.words is not None]
    words = None
    if worded:
        sums = {
            key: None
            if any(getattr(w, key) is None for w in worded)
            else sum((getattr(w, key) for w in worded), NO_ERRORS)
            for key in WER_KEYS
        }
        words = SessionWer(sums["cpwer"], sums["tcpwer"], sums["wer"], sums["tcorcwer"], ())  # type: ignore[arg-type]
    diagnostics = items[0].diagnostics
    for item in items[1:]:
        diagnostics = diagnostics + item.diagnostics
    return Scores(der, der0, words, diagnostics)


def score_session(
    reference: Sequence[Segment],
    hypothesis: Sequence[Segment],
    span: tuple[float, float],
    session: str,
    collar: float,
    tcp_collar: float = TCP_COLLAR,
    tokenizer: str = "mixed-v1",
    with_words: bool = True,
    tolerances: Mapping[str, float] | None = None,
) -> Scores:
    """Every count of one session; ``tolerances``: the diagnostics' (default :data:`TOLERANCES`)."""
    der = diarization_error(reference, hypothesis, span, collar)
    der0 = diarization_error(reference, hypothesis, span, 0.0)
    words, ref_tokens, hyp_tokens = None, None, None
    if with_words:
        ref_tokens = [tokenize(s.words, tokenizer) for s in reference]
        hyp_tokens = [tokenize(s.words, tokenizer) for s in hypothesis]
        words = session_wer(reference, ref_tokens, hypothesis, hyp_tokens, session, tcp_collar)
    detail = diagnose_unit(
        reference,
        ref_tokens,
        hypothesis,
        hyp_tokens,
        words.assignment if words else (),
        speaker_mapping(reference, hypothesis),
        {**TOLERANCES, **(tolerances or {}), "tcp_collar": tcp_collar},
        words.wer.errors if words else None,
    )
    return Scores(der, der0, words, detail.counts, detail)


def _pair_sessions(
    ref: Mapping[str, list[Segment]], hyp: Mapping[str, list[Segment]]
) -> dict[str, tuple[list[Segment], list[Segment]]]:
    if len(ref) == 1 and len(hyp) == 1:
        (name, r), (h,) = next(iter(ref.items())), hyp.values()
        return {name: (r, h)}
    return {name: (ref.get(name, []), hyp.get(name, [])) for name in sorted(set(ref) | set(hyp))}


def score_pair(
    reference: Sequence[Segment],
    hypothesis: Sequence[Segment],
    spans: Mapping[str, tuple[float, float]] | None = None,
    collar: float = 0.25,
    tcp_collar: float = TCP_COLLAR,
    tokenizer: str = "mixed-v1",
    tolerances: Mapping[str, float] | None = None,
) -> dict[str, Any]:
    """The ``msbench score`` JSON of two segment lists (see the module docstring)."""
    from msbench.scoring.formats import by_session

    with_words = any(s.words for s in reference) and any(s.words is not None for s in hypothesis)
    sessions, entries = [], []
    for name, (ref, hyp) in _pair_sessions(
        by_session(list(reference)), by_session(list(hypothesis))
    ).items():
        last = max((s.end_time for s in [*ref, *hyp]), default=0.0)
        span = (spans or {}).get(name, (0.0, last))
        scores = score_session(
            ref, hyp, span, name, collar, tcp_collar, tokenizer, with_words, tolerances
        )
        sessions.append(scores)
        entries.append({"session_id": name, **scores.to_dict(tcp_collar)})
    total = add_scores(sessions)
    out = total.to_dict(tcp_collar) if total else {}
    return {**out, "tokenizer": describe(tokenizer), "sessions": entries}
