"""One reference against one hypothesis: every metric per session and in sum (``msbench score``).

The JSON keys are a contract (scripts, the README and tests read them):
``der`` and ``der_collar0`` {``error_rate``, ``missed``, ``false_alarm``,
``confusion``, ``scored`` (s), ``collar`` (half-width, s)}; ``cpwer``,
``tcpwer``, ``wer``, ``tcorcwer`` {``error_rate``, ``errors``, ``length``,
``substitutions``, ``insertions``, ``deletions``}; ``tokenizer`` {name,
version}; the diagnostics (:mod:`msbench.scoring.diagnosis.unit`): ``e_lex``,
``e_seg``, ``e_attr``, the counts ``s``, ``i_lex``, ``i_seg``, ``d_lex``,
``d_seg``, ``n_ref``, ``utterances``, ``utterances_attributable``,
``utterances_misattributed``, and ``r_time`` (with ``t_ref``, ``t_hyp`` and
``overlap_checks``); ``sessions``: one entry per session with the same fields.
Rates are fractions. Totals are ratios of sums over sessions (never means of
rates).

Sessions are matched by id; when each side holds exactly one session under
different ids, they are paired and a note says so. A UEM gives each session
its scored spans (their union, :mod:`msbench.io.uem`); a session it
does not name, or every session without one, is scored on ``[0, last end of
either side)``, with a note. A side read from speaker times alone (RTTM)
gives DER alone: the WER entries are ``null``, with a note; a side with no
segment at all is scored (an empty hypothesis is all deletions).

``notes`` (top level, and per session) lists every change made to the input
before scoring, with counts (:mod:`msbench.scoring.input_notes`): zero-length
segments (kept for the WER family, no duration for DER), a speaker's own
overlapping segments (merged for DER), segments outside the UEM (not scored),
sessions paired or missing on one side, and DER undefined for a reference
without speech. Nothing is changed silently.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from msbench.errors import ConfigError
from msbench.labels import normalise_speakers
from msbench.records import Segment
from msbench.scoring.der import (
    DEFAULT_DER_CONVENTION,
    DiarizationError,
    diarization_error,
    speaker_mapping,
)
from msbench.scoring.diagnosis.decomposition import DEFAULT_SEGMENTATION_TOLERANCE
from msbench.scoring.diagnosis.regions import DEFAULT_BOUNDARY_TOLERANCE
from msbench.scoring.diagnosis.unit import DiagnosticCounts, UnitDiagnosis, diagnose_unit
from msbench.scoring.input_notes import meets_uem, session_notes
from msbench.scoring.tokenizer import describe, tokenize
from msbench.scoring.wer import (
    NO_ERRORS,
    TCP_COLLAR,
    SessionWer,
    WordErrors,
    bounded_orcwer,
    session_wer,
    timing_conventions,
)
from msbench.timeline import SpeakerTimeline, to_micros, to_seconds, total

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
    notes: tuple[str, ...] = ()  # what was changed in the input before scoring
    orcwer: WordErrors | None = None  # only `msbench score` computes it (bounded inputs)
    speech: tuple[float, float] = field(default=(0.0, 0.0), compare=False)  # T_ref, T_hyp (s)
    word_view: dict[str, Any] | None = field(default=None, compare=False)  # with_word_view

    def to_dict(self, tcp_collar: float = TCP_COLLAR) -> dict[str, Any]:
        out: dict[str, Any] = {"der": self.der.to_dict(), "der_collar0": self.der_collar0.to_dict()}
        for key in WER_KEYS:
            counts = getattr(self.words, key) if self.words else None
            out[key] = counts.to_dict() if counts is not None else None
        if out["tcpwer"] is not None:
            out["tcpwer"].update(timing_conventions(tcp_collar))
        return {**out, **self.diagnostics.to_dict(), "notes": list(self.notes)}


def add_der(a: DiarizationError, b: DiarizationError) -> DiarizationError:
    """Two sessions' DER parts, summed in integer microseconds (each part is a whole number of
    them), so a total prints as ``1.41``, never ``1.4100000000000001``."""
    from msbench.timeline import to_micros, to_seconds

    def total(x: float, y: float) -> float:
        return to_seconds(to_micros(x) + to_micros(y))

    return replace(
        a,
        missed=total(a.missed, b.missed),
        false_alarm=total(a.false_alarm, b.false_alarm),
        confusion=total(a.confusion, b.confusion),
        scored=total(a.scored, b.scored),
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
    orc = [item.orcwer for item in items if item.orcwer is not None]
    orcwer = sum(orc, NO_ERRORS) if worded and len(orc) == len(items) else None
    notes = tuple(note for item in items for note in item.notes)
    return Scores(der, der0, words, diagnostics, notes=notes, orcwer=orcwer)


def score_session(
    reference: Sequence[Segment],
    hypothesis: Sequence[Segment],
    spans: Sequence[tuple[float, float]],
    session: str,
    collar: float,
    tcp_collar: float = TCP_COLLAR,
    tokenizer: str = "mixed-v1",
    with_words: bool = True,
    tolerances: Mapping[str, float] | None = None,
    with_orc: bool = False,
    der_convention: str = DEFAULT_DER_CONVENTION,
    with_word_view: bool = False,
) -> Scores:
    """Every count of one session scored on ``spans`` (its UEM).

    DER: the segments' speech inside the spans (zero-length segments have none; each speaker's
    segments merged), collars at the reference's segment boundaries as ``der_convention``
    places them (:mod:`msbench.scoring.der`). The WER family and the diagnostics: the segments
    that meet a span (meeteval's UEM rule, closed intervals; partial segments are kept whole).
    ``tolerances``: the diagnostics' (default :data:`TOLERANCES`); ``with_orc``: also the
    ORC-WER where its matching fits (:func:`msbench.scoring.wer.bounded_orcwer`);
    ``with_word_view``: every word's class (:mod:`msbench.scoring.word_view`).
    """
    reference, hypothesis, label_notes = _labels(reference, hypothesis)
    lines = SpeakerTimeline.of(reference), SpeakerTimeline.of(hypothesis)  # built once a unit
    speech = (to_seconds(total(lines[0].speech())), to_seconds(total(lines[1].speech())))
    boundaries = [(to_micros(s.start_time), to_micros(s.end_time)) for s in reference]
    der = diarization_error(*lines, spans, collar, boundaries, der_convention)
    der0 = diarization_error(*lines, spans, 0.0, boundaries, der_convention)
    notes = label_notes + session_notes(reference, hypothesis, spans, with_words)
    kept = (
        [s for s in reference if meets_uem(s, spans)],
        [s for s in hypothesis if meets_uem(s, spans)],
    )
    if (len(kept[0]), len(kept[1])) != (len(reference), len(hypothesis)):
        lines = SpeakerTimeline.of(kept[0]), SpeakerTimeline.of(kept[1])  # what the WER family sees
    reference, hypothesis = kept
    words, ref_tokens, hyp_tokens, orc = None, None, None, None
    if with_words:
        ref_tokens = [tokenize(s.words, tokenizer) for s in reference]
        hyp_tokens = [tokenize(s.words, tokenizer) for s in hypothesis]
        words = session_wer(reference, ref_tokens, hypothesis, hyp_tokens, session, tcp_collar)
        notes += [words.note] if words.note else []
        if with_orc:
            orc, orc_note = bounded_orcwer(reference, ref_tokens, hypothesis, hyp_tokens, session)
            notes += [orc_note] if orc_note else []
    if der.scored == 0:
        notes.append("DER undefined: the reference has no speech inside the scored spans")
    detail = diagnose_unit(
        (reference, ref_tokens, lines[0]),
        (hypothesis, hyp_tokens, lines[1]),
        words.assignment if words else (),
        speaker_mapping(*lines),
        {**TOLERANCES, **(tolerances or {}), "tcp_collar": tcp_collar},
        words.wer.errors if words else None,
    )
    sides = (reference, ref_tokens), (hypothesis, hyp_tokens)
    view = unit_word_view(*sides, words, detail, tcp_collar) if with_word_view else None
    return Scores(der, der0, words, detail.counts, detail, tuple(notes), orc, speech, view)


def unit_word_view(
    ref: tuple[Sequence[Segment], Sequence[Sequence[str]] | None],
    hyp: tuple[Sequence[Segment], Sequence[Sequence[str]] | None],
    words: SessionWer | None,
    detail: UnitDiagnosis,
    tcp_collar: float,
) -> dict[str, Any] | None:
    """The word view of a scored session (None without words on a side); a failure becomes
    the view's ``problem`` (the scores never depend on it)."""
    from msbench.scoring.word_view import word_view

    (reference, ref_tokens), (hypothesis, hyp_tokens) = ref, hyp
    if words is None or ref_tokens is None or hyp_tokens is None:
        return None
    try:
        return word_view(
            reference, ref_tokens, hypothesis, hyp_tokens,
            {"cp": words.cp_assignment, "tcp": words.assignment},
            {"cp": words.cpwer, "tcp": words.tcpwer},
            detail.agnostic, tcp_collar,
        )  # fmt: skip
    except (MemoryError, ValueError) as error:
        return {"problem": f"no word view: {error}"}


def _labels(
    reference: Sequence[Segment], hypothesis: Sequence[Segment]
) -> tuple[list[Segment], list[Segment], list[str]]:
    """Both sides with speaker labels as people read them (:mod:`msbench.labels`), and notes."""
    ref, ref_notes = normalise_speakers(reference, "reference")
    hyp, hyp_notes = normalise_speakers(hypothesis, "hypothesis")
    return ref, hyp, ref_notes + hyp_notes


def _pair_sessions(
    ref: Mapping[str, list[Segment]], hyp: Mapping[str, list[Segment]]
) -> tuple[dict[str, tuple[list[Segment], list[Segment]]], list[str]]:
    """Sessions matched by id (and a single session each side, whatever its ids), with notes."""
    if len(ref) == 1 and len(hyp) == 1 and set(ref) != set(hyp):
        (name, r), (other, h) = next(iter(ref.items())), next(iter(hyp.items()))
        note = f"the only reference session {name!r} is paired with the only hypothesis session {other!r}"
        return {name: (r, h)}, [note]
    notes = [
        f"session {name!r}: only in the {side} (scored as all {kind})"
        for side, kind, names in (
            ("reference", "deletions and missed speech", set(ref) - set(hyp)),
            ("hypothesis", "insertions and false alarms", set(hyp) - set(ref)),
        )
        for name in sorted(names)
    ]
    paired = {name: (ref.get(name, []), hyp.get(name, [])) for name in sorted(set(ref) | set(hyp))}
    return paired, notes


FAR_SECONDS = 60.0


def far_segments(reference: Sequence[Segment], hypothesis: Sequence[Segment]) -> list[str]:
    """A note for hypothesis segments that start or end over ``FAR_SECONDS`` after the
    reference ends (a segment from 0 to 36,000 s is as far as one that starts there).

    Such times usually mean other units (milliseconds, samples) or another
    recording; they are scored as they are (false alarm, insertions), and said.

    >>> far_segments([Segment("s", 0.0, 4.0, "A", "a")], [Segment("s", 1e12, 1e12 + 2, "A", "a")])
    ["1 hypothesis segment(s) reach more than 60 s past the reference's last end (4.000 s), the farthest to 1000000000002.000 s: check that the times are seconds of the same recording (scored as they are: false alarm and insertions)"]
    >>> len(far_segments([Segment("s", 0.0, 4.0, "A", "a")], [Segment("s", 0.0, 36000.0, "A", "a")]))
    1
    """
    ends: dict[str, float] = {}
    for segment in reference:
        ends[segment.session_id] = max(ends.get(segment.session_id, 0.0), segment.end_time)
    far = [
        s
        for s in hypothesis
        if s.session_id in ends and max(s.start_time, s.end_time) > ends[s.session_id] + FAR_SECONDS
    ]
    if not far:
        return []
    last = max(far, key=lambda s: max(s.start_time, s.end_time))
    return [
        f"{len(far)} hypothesis segment(s) reach more than {FAR_SECONDS:.0f} s past the "
        f"reference's last end ({ends[last.session_id]:.3f} s), the farthest to "
        f"{max(last.start_time, last.end_time):.3f} s: check that the times are seconds of the "
        "same recording (scored as they are: false alarm and insertions)"
    ]


def has_words(segments: Sequence[Segment]) -> bool:
    """A side has words unless it was read from speaker times alone (RTTM: every ``words`` None)."""
    return not segments or any(s.words is not None for s in segments)


def _runaway_note(
    name: str,
    hypothesis: Sequence[Segment],
    spans: Sequence[tuple[float, float]],
    tokenizer: str,
    notes: list[str],
) -> bool:
    """True (and a note) when a session's hypothesis is a runaway output
    (:func:`msbench.scoring.checks.runaway`): DER is scored, the WER family's alignments not."""
    from msbench.scoring.checks import runaway
    from msbench.scoring.tokenizer import tokenize

    tokens = sum(len(tokenize(s.words, tokenizer)) for s in hypothesis)
    why = runaway(tokens, sum(b - a for a, b in spans))
    if why:
        notes.append(f"session {name!r}: {why}: DER only, no WER family")
    return why is not None


def score_pair(
    reference: Sequence[Segment],
    hypothesis: Sequence[Segment],
    spans: Mapping[str, Sequence[tuple[float, float]]] | None = None,
    collar: float = 0.25,
    tcp_collar: float = TCP_COLLAR,
    tokenizer: str = "mixed-v1",
    tolerances: Mapping[str, float] | None = None,
    with_orc: bool = True,
    der_convention: str = DEFAULT_DER_CONVENTION,
    progress: TextIO | None = None,
) -> dict[str, Any]:
    """The ``msbench score`` JSON of two segment lists (see the module docstring).

    ``spans``: each session's scored spans (a UEM); without them every
    session is scored on ``[0, last end of either side)``. ``with_orc``: also
    the (unconstrained) ORC-WER, where it fits. ``progress``: a line per session goes there.
    """
    from msbench.io.read import by_session

    check_seconds({"collar": collar, "tcp_collar": tcp_collar, **(tolerances or {})})
    with_words = has_words(reference) and has_words(hypothesis)
    notes: list[str] = []
    for side, segments, what in (
        ("reference", reference, "DER and the WER family are undefined (nothing to score)"),
        ("hypothesis", hypothesis, "every reference word is a deletion, all speech missed"),
    ):
        if not segments:
            notes.append(f"the {side} holds no segment: {what}")
    if not with_words:
        side = "reference" if not has_words(reference) else "hypothesis"
        notes.append(f"the {side} holds speaker times only (no words): DER alone, no WER family")
    paired, pairing_notes = _pair_sessions(
        by_session(list(reference)), by_session(list(hypothesis))
    )
    notes += pairing_notes + far_segments(reference, hypothesis)
    sessions, entries = [], []
    for k, (name, (ref, hyp)) in enumerate(paired.items(), start=1):
        if progress is not None:
            print(f"scoring session {name!r} ({k} of {len(paired)}): {len(ref)} reference and "
                  f"{len(hyp)} hypothesis segments", file=progress, flush=True)  # fmt: skip
        session_spans = (spans or {}).get(name)
        if session_spans is None:
            last = max((s.end_time for s in [*ref, *hyp]), default=0.0)
            session_spans = ((0.0, last),)
            if spans is not None:
                notes.append(f"session {name!r} is not in the UEM: scored on 0..{last:.3f} s")
        words = with_words and not _runaway_note(name, hyp, session_spans, tokenizer, notes)
        scores = score_session(
            ref, hyp, session_spans, name, collar, tcp_collar, tokenizer, words, tolerances,
            with_orc, der_convention,
        )  # fmt: skip
        sessions.append(scores)
        entries.append({"session_id": name, **scores.to_dict(tcp_collar), **_orc(scores)})
        notes += [f"session {name!r}: {note}" for note in scores.notes]
    total = add_scores(sessions)
    out = {**total.to_dict(tcp_collar), **_orc(total)} if total else {}
    return {**out, "tokenizer": describe(tokenizer), "notes": notes, "sessions": entries}


def check_seconds(values: Mapping[str, float]) -> None:
    """Refuse a negative, NaN or infinite collar or tolerance, naming it.

    >>> check_seconds({"collar": -1.0})
    Traceback (most recent call last):
    msbench.errors.ConfigError: collar -1.0: give a finite number of seconds, 0 or more
    """
    for name, value in values.items():
        if not math.isfinite(value) or value < 0:
            raise ConfigError(f"{name} {value}: give a finite number of seconds, 0 or more")


def _orc(scores: Scores) -> dict[str, Any]:
    return {"orcwer": scores.orcwer.to_dict() if scores.orcwer is not None else None}
