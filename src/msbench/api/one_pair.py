"""Scoring one reference against one hypothesis from Python: ``msbench.score`` and its
shortcuts, on whatever the caller holds (:mod:`msbench.api.inputs`).

``score`` computes every metric at once (DER and its parts, cpWER, tcpWER, the speaker-agnostic
WER, tcORC-WER, ORC-WER where it fits, the diagnosis); ``cpwer``, ``tcpwer``, ``wer`` and
``der`` return one metric's summed counts, a value that adds with ``+`` and has its
``error_rate`` (meeteval's ``ErrorRate`` idea). The keyword arguments are ``msbench score``'s
options with the same names and defaults (``tests/unit/test_api.py`` holds them equal).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from msbench.api.inputs import Side, read_side
from msbench.scoring.der import DEFAULT_DER_CONVENTION, DiarizationError
from msbench.scoring.diagnosis.decomposition import DEFAULT_SEGMENTATION_TOLERANCE
from msbench.scoring.diagnosis.regions import DEFAULT_BOUNDARY_TOLERANCE
from msbench.scoring.report import ScoreReport
from msbench.scoring.tokenizer import DEFAULT_TOKENIZER
from msbench.scoring.wer import TCP_COLLAR, WordErrors

Uem = str | Path | Mapping[str, Sequence[tuple[float, float]]] | None


def score(
    reference: Any,
    hypothesis: Any,
    *,
    uem: Uem = None,
    collar: float = 0.25,
    der_convention: str = DEFAULT_DER_CONVENTION,
    tcp_collar: float = TCP_COLLAR,
    tokenizer: str = DEFAULT_TOKENIZER,
    segmentation_tolerance: float = DEFAULT_SEGMENTATION_TOLERANCE,
    boundary_tolerance: float = DEFAULT_BOUNDARY_TOLERANCE,
    ref_format: str | None = None,
    hyp_format: str | None = None,
    encoding: str | None = None,
    sessions: str | None = None,
    progress: TextIO | None = None,
    word_view: str | Path | None = None,
    threads: int | None = None,
) -> ScoreReport:
    """Every metric of a hypothesis against a reference: a :class:`ScoreReport`.

    ``reference``, ``hypothesis``: a path (any format msbench reads, told apart by content),
    a list of SegLST dicts, a meeteval ``SegLST``, lhotse supervisions, a pyannote
    ``Annotation`` (DER only) or msbench segments. ``uem``: a UEM file or ``{session: [(start,
    end), ...]}`` (default: each session from 0 to its last end). ``collar``: DER's half-width
    at reference boundaries (s); ``tcp_collar``: tcpWER's (s); ``sessions``: a regular
    expression of the session ids to score; ``progress``: a stream for progress lines;
    ``word_view``: a folder to write each session's word view to (``<session>.json``: every
    word's class under cpWER and tcpWER, :mod:`msbench.scoring.word_view`); ``threads``: for a
    large session's independent steps (default: the CPUs available, at most 4; the numbers do
    not depend on it, :mod:`msbench.scoring.threads`).

    >>> import msbench
    >>> ref = [{"session_id": "m", "speaker": "A", "start_time": 0, "end_time": 2, "words": "hello there"}]
    >>> hyp = [{"session_id": "m", "speaker": "x", "start_time": 0, "end_time": 2, "words": "hello"}]
    >>> msbench.score(ref, hyp).rate("cpwer")
    0.5
    """
    from dataclasses import replace

    from msbench.scoring.checks import SPEAKERLESS_NOTE, one_speaker, refuse_structural_problem
    from msbench.scoring.pipeline import score_pair
    from msbench.scoring.threads import scoring_threads
    from msbench.scoring.word_view import session_view_writer

    ref, hyp = _read_both(reference, hypothesis, ref_format, hyp_format, encoding, progress)
    where = hypothesis if isinstance(hypothesis, str | os.PathLike) else "<hypothesis>"
    segments, speakerless = one_speaker(hyp.segments)
    refuse_structural_problem(where, segments)  # what evaluate excludes, alike
    tolerances = {"segmentation_tolerance": segmentation_tolerance,
                  "boundary_tolerance": boundary_tolerance}  # fmt: skip
    on_view = session_view_writer(Path(word_view), tokenizer, tcp_collar) if word_view else None
    report = score_pair(ref.segments, segments, _spans(uem, encoding), collar, tcp_collar,
                        tokenizer, tolerances, der_convention=der_convention, progress=progress,
                        sessions=sessions, on_word_view=on_view,
                        threads=scoring_threads(threads))  # fmt: skip
    notes = (*([SPEAKERLESS_NOTE] if speakerless else []), *_read_notes(ref, hyp), *report.notes)
    return replace(report, notes=notes, read={"ref": ref.read, "hyp": hyp.read})


def _read_both(
    reference: Any,
    hypothesis: Any,
    ref_format: str | None,
    hyp_format: str | None,
    encoding: str | None,
    progress: TextIO | None,
) -> tuple[Any, Any]:
    """Both sides read (what each file was read as goes to ``progress``)."""
    ref = read_side(reference, "reference", ref_format, encoding)
    hyp = read_side(hypothesis, "hypothesis", hyp_format, encoding)
    for name, side, value in (("ref", ref, reference), ("hyp", hyp, hypothesis)):
        if progress is not None and isinstance(value, str | os.PathLike):
            print(f"{name}: {describe_read(side.read, value)}", file=progress, flush=True)
    return ref, hyp


def _read_notes(ref: Side, hyp: Side) -> list[str]:
    """What reading each side left out (:mod:`msbench.io.reading_notes`), side by side."""
    return [
        f"{name}: {n}" for name, s in (("ref", ref), ("hyp", hyp)) for n in s.read.get("notes", [])
    ]


def describe_read(read: Mapping[str, Any], path: object) -> str:
    """``read as vibevoice (by content; 3 speakers, 42 segments): out/u.json``."""
    return (
        f"read as {read['format']} (by {read['chosen_by']}; {read['speakers']} speakers, "
        f"{read['segments']} segments): {path}"
    )


def _spans(uem: Uem, encoding: str | None) -> Mapping[str, Sequence[tuple[float, float]]] | None:
    """A UEM file's spans (a bad line refused, naming it), or the mapping as given."""
    if uem is None or isinstance(uem, Mapping):
        return uem
    from msbench.ingest.adapters import read_uem_spans

    return read_uem_spans(str(uem), encoding).strict()


def cpwer(reference: Any, hypothesis: Any, **options: Any) -> WordErrors:
    """cpWER's summed counts (``error_rate``, ``errors``, ``length``, S, I, D); ``+`` adds them.

    >>> ref = [{"session_id": "m", "speaker": "A", "start_time": 0, "end_time": 2, "words": "a b"}]
    >>> cpwer(ref, ref).error_rate
    0.0
    """
    return _words(score(reference, hypothesis, **options), cpwer.__name__)


def tcpwer(reference: Any, hypothesis: Any, **options: Any) -> WordErrors:
    """tcpWER's summed counts (collar ``tcp_collar``, 5 s by default)."""
    return _words(score(reference, hypothesis, **options), tcpwer.__name__)


def wer(reference: Any, hypothesis: Any, **options: Any) -> WordErrors:
    """The speaker-agnostic WER's summed counts (each side one time-ordered stream)."""
    return _words(score(reference, hypothesis, **options), wer.__name__)


def der(reference: Any, hypothesis: Any, **options: Any) -> DiarizationError:
    """DER's summed parts (``error_rate``, ``missed``, ``false_alarm``, ``confusion``,
    ``scored`` seconds); ``+`` adds them.

    >>> ref = [{"session_id": "m", "speaker": "A", "start_time": 0, "end_time": 10}]
    >>> hyp = [{"session_id": "m", "speaker": "B", "start_time": 0, "end_time": 5}]
    >>> d = der(ref, hyp, collar=0.0)
    >>> d.error_rate, d.missed
    (0.5, 5.0)
    """
    report = score(reference, hypothesis, **options)
    if report.total is None:
        raise ValueError("nothing was scored: neither side holds a segment")
    return report.total.der


def _words(report: ScoreReport, name: str) -> WordErrors:
    counts = getattr(report.total.words, name) if report.total and report.total.words else None
    if counts is None:
        why = "; ".join(report.notes) or "a side holds no words"
        print(f"msbench: {name} not computed: {why}", file=sys.stderr)
        raise ValueError(f"{name} not computed: {why}")
    return counts
