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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from msbench.labels import normalise_speakers
from msbench.metrics import WER_COUNTS
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
from msbench.scoring.side import Side
from msbench.scoring.tokenizer import DEFAULT_TOKENIZER, changes_note, tokenize
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

#: The WER-family keys of the JSON, each an attribute of :class:`SessionWer` (msbench.metrics).
WER_KEYS = tuple(WER_COUNTS)
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


def add_scores(items: Sequence[Scores]) -> Scores | None:
    """Sums of every count (ratios of sums follow); None for no items."""
    if not items:
        return None
    der, der0 = items[0].der, items[0].der_collar0
    for item in items[1:]:
        der, der0 = der + item.der, der0 + item.der_collar0
    worded = [item.words for item in items if item.words is not None]
    words = None
    if worded:
        sums = {
            key: None
            if any(getattr(w, key) is None for w in worded)
            else sum((getattr(w, key) for w in worded), NO_ERRORS)
            for key in WER_KEYS
        }
        words = SessionWer(**sums, assignment=())  # type: ignore[arg-type]
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
    tokenizer: str = DEFAULT_TOKENIZER,
    with_words: bool = True,
    tolerances: Mapping[str, float] | None = None,
    with_orc: bool = False,
    der_convention: str = DEFAULT_DER_CONVENTION,
    with_word_view: bool = False,
    progress: TextIO | None = None,
    threads: int = 1,
) -> Scores:
    """Every count of one session scored on ``spans`` (its UEM).

    DER: the segments' speech inside the spans (zero-length segments have none; each speaker's
    segments merged), collars at the reference's segment boundaries as ``der_convention``
    places them (:mod:`msbench.scoring.der`). The WER family and the diagnostics: the segments
    that meet a span (meeteval's UEM rule, closed intervals; partial segments are kept whole).
    ``tolerances``: the diagnostics' (default :data:`TOLERANCES`); ``with_orc``: the ORC-WER
    where it fits; ``with_word_view``: every word's class (:mod:`msbench.scoring.word_view`);
    ``progress``: a line after each step of a long session; ``threads``: for a large session's
    independent steps (:mod:`msbench.scoring.threads`; the numbers do not depend on it)."""
    steps = Steps(progress, len(reference) + len(hypothesis))
    reference, hypothesis, label_notes = _labels(reference, hypothesis)
    lines = SpeakerTimeline.of(reference), SpeakerTimeline.of(hypothesis)  # built once a unit
    speech = (to_seconds(total(lines[0].speech())), to_seconds(total(lines[1].speech())))
    boundaries = [(to_micros(s.start_time), to_micros(s.end_time)) for s in reference]
    der = diarization_error(*lines, spans, collar, boundaries, der_convention)
    der0 = diarization_error(*lines, spans, 0.0, boundaries, der_convention)
    steps.done("DER")
    notes = label_notes + session_notes(reference, hypothesis, spans, with_words)
    kept = [s for s in reference if meets_uem(s, spans)], [s for s in hypothesis if meets_uem(s, spans)]  # fmt: skip
    if (len(kept[0]), len(kept[1])) != (len(reference), len(hypothesis)):
        lines = SpeakerTimeline.of(kept[0]), SpeakerTimeline.of(kept[1])  # what the WER family sees
    ref, hyp = Side(kept[0], None, lines[0]), Side(kept[1], None, lines[1])
    words, orc, alignments = None, None, None
    settings = {**TOLERANCES, **(tolerances or {}), "tcp_collar": tcp_collar}
    if with_words:
        ref = ref._replace(tokens=[tokenize(s.words, tokenizer) for s in ref.segments])
        hyp = hyp._replace(tokens=[tokenize(s.words, tokenizer) for s in hyp.segments])
        for side, segments in (("reference", ref.segments), ("hypothesis", hyp.segments)):
            rewritten = changes_note(side, [s.words for s in segments], tokenizer)
            notes += [rewritten] if rewritten else []
        words, alignments = _word_family(ref, hyp, session, tcp_collar, with_word_view, threads)
        notes += [words.note] if words.note else []
        if with_orc:
            orc, orc_note = bounded_orcwer(ref, hyp, session)
            notes += [orc_note] if orc_note else []
        steps.done("cpWER, tcpWER, WER")
    notes += [] if der.scored else [UNDEFINED_DER]
    detail = diagnose_unit(ref, hyp, words.assignment if words else (), speaker_mapping(*lines),
                           settings, words.wer.errors if words else None,
                           words.words if words else None, alignments)  # fmt: skip
    steps.done("the diagnosis")
    view = unit_word_view(ref, hyp, words, detail, tcp_collar) if with_word_view else None
    return Scores(der, der0, words, detail.counts, detail, tuple(notes), orc, speech, view)


def _word_family(
    ref: Side, hyp: Side, session: str, tcp_collar: float, with_steps: bool, threads: int
) -> tuple[SessionWer, dict[str, Any]]:
    """The WER family and the diagnosis' two merged-stream alignments, the independent steps on
    ``threads`` threads (:mod:`msbench.scoring.threads`): both sides' words are prepared once,
    and the speaker-agnostic WER's distance (rapidfuzz) bounds the alignments' bands."""
    from rapidfuzz.distance import Levenshtein

    from msbench.scoring.diagnosis.alignment import align_words, tight_alignment
    from msbench.scoring.matching.words import unit_words
    from msbench.scoring.threads import unit_pool

    words = unit_words(ref, hyp)
    minimal = Levenshtein.distance(words[0].symbols.tolist(), words[1].symbols.tolist())
    with unit_pool(threads, len(words[0]) + len(words[1])) as pool:
        timed = pool.submit(align_words, ref, hyp, tcp_collar, minimal, words=words)
        tight = pool.submit(tight_alignment, ref, hyp, minimal, words)
        scored = session_wer(ref, hyp, session, tcp_collar, with_steps, words, pool)
        return scored, {"timed": timed.result(), "tight": tight.result()}


def unit_word_view(
    ref: Side, hyp: Side, words: SessionWer | None, detail: UnitDiagnosis, tcp_collar: float
) -> dict[str, Any] | None:
    """The word view of a scored session (None without words on a side); a failure becomes
    the view's ``problem`` (the scores never depend on it)."""
    from msbench.scoring.word_view import word_view

    if words is None or ref.tokens is None or hyp.tokens is None:
        return None
    try:
        return word_view(
            ref,
            hyp,
            {"cp": words.cp_assignment, "tcp": words.assignment},
            {"cp": words.cpwer, "tcp": words.tcpwer},
            detail.agnostic,
            tcp_collar,
            scored_steps(words),
        )
    except (MemoryError, ValueError) as error:
        return {"problem": f"no word view: {error}"}


def scored_steps(words: SessionWer) -> dict[str, dict[tuple[str, str], list[Any]]]:
    """The cpWER and tcpWER pairs' alignment steps as the word view keys words: (segment
    index, token index) on each side."""
    assert words.words is not None  # noqa: S101 - set by session_wer
    ref, hyp = words.words
    keyed: dict[str, dict[tuple[str, str], list[Any]]] = {}
    for view, pairs in words.steps.items():
        if pairs is None:
            continue
        keyed[view] = {
            speakers: [
                (
                    None if a is None else (int(ref.segment[a]), int(ref.position[a])),
                    None if b is None else (int(hyp.segment[b]), int(hyp.position[b])),
                )
                for a, b in steps
            ]
            for speakers, steps in pairs.items()
        }
    return keyed


#: The note of a session whose reference has no speech to score DER on.
UNDEFINED_DER = "DER undefined: the reference has no speech inside the scored spans"


class Steps:
    """Progress within one session: a line after each step, with its seconds, where a stream
    was given and the session is long (over :data:`LONG_SESSION` segments)."""

    def __init__(self, stream: TextIO | None, segments: int) -> None:
        import time

        self.stream = stream if segments > LONG_SESSION else None
        self.last = time.perf_counter()

    def done(self, step: str) -> None:
        import time

        now = time.perf_counter()
        if self.stream is not None:
            print(f"  {step}: {now - self.last:.1f} s", file=self.stream, flush=True)
        self.last = now


#: A session with more segments than this says each step as it ends (``progress``).
LONG_SESSION = 200


def _labels(
    reference: Sequence[Segment], hypothesis: Sequence[Segment]
) -> tuple[list[Segment], list[Segment], list[str]]:
    """Both sides with speaker labels as people read them (:mod:`msbench.labels`), and notes."""
    ref, ref_notes = normalise_speakers(reference, "reference")
    hyp, hyp_notes = normalise_speakers(hypothesis, "hypothesis")
    return ref, hyp, ref_notes + hyp_notes
