"""The WER family with meeteval, on tokens of one tokenizer: cpWER, tcpWER, WER, tcORC-WER.

Both sides are tokenized first (:mod:`msbench.scoring.tokenizer`) and handed to
meeteval as whitespace-separated tokens, so meeteval's own word splitting is
the identity.

``cpwer``   concatenated minimum-permutation WER: each speaker's words in time
            order, the speaker mapping that minimises the errors (meeteval ``cpwer``).
``tcpwer``  time-constrained cpWER: a word may only match a word within
            ``collar`` seconds (default 5 s); pseudo-word timing is meeteval's
            default (``character_based`` for the reference, ``character_based_points``
            for the hypothesis), stated in the output.
``wer``     the speaker-agnostic WER: cpWER with every speaker of each side mapped
            to one, i.e. one time-ordered stream of segments per side (segments
            sorted by start time, then concatenated). Overlapped speech is
            serialised by segment start, so it differs from tcORC-WER there.
``tcorcwer`` time-constrained optimal reference combination WER (meeteval
            ``tcorcwer``, the tcpWER collar and timing), reported beside ``wer``:
            the hypothesis streams may take any reference utterance. The
            unconstrained ORC-WER needs memory exponential in the hypothesis
            streams (meeteval asks for 829,450 GB on a 30-minute, 4-speaker
            recording), so msbench reports the time-constrained one; ``msbench
            score`` adds ``orcwer`` where its matching fits in memory
            (:func:`bounded_orcwer`).

A side with no segment in a session is given one empty placeholder segment,
so that meeteval sees the session on both sides (all deletions, or all
insertions).

meeteval's own warnings (a speaker's self-overlap, word timings against
segment order) are silenced while msbench calls it: :mod:`msbench.scoring.input_notes`
states the self-overlap in the output's ``notes``, with counts.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from typing import Any

from msbench.records import Segment
from msbench.scoring.matching.words import SideWords
from msbench.scoring.side import Side

TCP_COLLAR = 5.0
REF_PSEUDO_WORD_TIMING = "character_based"
HYP_PSEUDO_WORD_TIMING = "character_based_points"
ONE_SPEAKER = "all"
#: meeteval's ORC matching refuses more hypothesis streams than this.
ORC_MAX_STREAMS = 10
#: The ORC-WER's matching holds (reference utterances) x prod_k (len(hyp_k) + 1) cells of 16
#: bytes (meeteval's own estimate): it is computed when that stays under this (40 MB).
ORC_MAX_CELLS = 2_500_000


@dataclass(frozen=True)
class WordErrors:
    errors: int
    length: int
    substitutions: int
    insertions: int
    deletions: int

    @property
    def error_rate(self) -> float | None:
        """errors / length; None when the reference has no token."""
        return self.errors / self.length if self.length else None

    def to_dict(self) -> dict[str, Any]:
        return {"error_rate": self.error_rate, **asdict(self)}

    def __add__(self, other: WordErrors) -> WordErrors:
        return WordErrors(*(a + b for a, b in zip(astuple(self), astuple(other), strict=True)))


def astuple(errors: WordErrors) -> tuple[int, int, int, int, int]:
    return (errors.errors, errors.length, errors.substitutions, errors.insertions, errors.deletions)


NO_ERRORS = WordErrors(0, 0, 0, 0, 0)


#: meeteval's loggers (named by module) whose warnings msbench states as notes instead.
MEETEVAL_LOGGERS = ("preprocess", "error_rate", "time_constrained")


@contextlib.contextmanager
def quiet_meeteval() -> Iterator[None]:
    """meeteval's warnings off for the duration (errors still pass)."""
    loggers = [logging.getLogger(name) for name in MEETEVAL_LOGGERS]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def seglst(
    segments: Sequence[Segment],
    session: str,
    tokens: Sequence[Sequence[str]],
    one_speaker: bool = False,
) -> Any:
    """A meeteval SegLST of one session's segments, words given as token lists."""
    from meeteval.io import SegLST

    rows = [
        {
            "session_id": session,
            "speaker": ONE_SPEAKER if one_speaker else s.speaker,
            "start_time": s.start_time,
            "end_time": s.end_time,
            "words": " ".join(t),
        }
        for s, t in zip(segments, tokens, strict=True)
    ]
    if not rows:
        rows = [
            {
                "session_id": session,
                "speaker": ONE_SPEAKER,
                "start_time": 0.0,
                "end_time": 0.0,
                "words": "",
            }
        ]
    return SegLST(rows)


def _counts(result: Any) -> WordErrors:
    return WordErrors(
        result.errors, result.length, result.substitutions, result.insertions, result.deletions
    )


@dataclass(frozen=True)
class SessionWer:
    cpwer: WordErrors
    tcpwer: WordErrors
    wer: WordErrors
    tcorcwer: WordErrors | None  # None: the matching does not fit (``note`` says why)
    assignment: tuple[tuple[str | None, str | None], ...]  # tcpWER's (ref, hyp) speaker pairs
    note: str = ""
    cp_assignment: tuple[tuple[str | None, str | None], ...] = ()  # cpWER's speaker pairs
    #: both sides' words as scored (:mod:`msbench.scoring.matching.words`), for the diagnosis
    words: tuple[SideWords, SideWords] | None = field(default=None, compare=False, repr=False)
    #: per metric (``cp``, ``tcp``), each assigned pair's alignment steps (word indices into
    #: ``words``), for the word view; ``cp`` only when asked for
    steps: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


def session_wer(
    ref: Side,
    hyp: Side,
    session: str,
    tcp_collar: float = TCP_COLLAR,
    with_steps: bool = False,
    words: tuple[SideWords, SideWords] | None = None,
    pool: Executor | None = None,
) -> SessionWer:
    """The four word error counts of one session (see the module docstring); ``with_steps``:
    keep the cpWER pairs' alignment steps too (the word view reads them); ``words``: both
    sides' words when the caller prepared them; ``pool``: where cpWER, tcpWER and the WER run
    (:mod:`msbench.scoring.threads`; by default one after the other on this thread)."""
    with quiet_meeteval():
        return _session_wer(ref, hyp, session, tcp_collar, with_steps, words, pool)


def _session_wer(
    ref_side: Side,
    hyp_side: Side,
    session: str,
    tcp_collar: float,
    with_steps: bool,
    words: tuple[SideWords, SideWords] | None,
    pool: Executor | None,
) -> SessionWer:
    import meeteval

    from msbench.scoring.matching import unit_wer
    from msbench.scoring.matching.words import unit_words
    from msbench.scoring.threads import unit_pool

    (reference, ref_tokens), (hypothesis, hyp_tokens) = ref_side[:2], hyp_side[:2]
    assert ref_tokens is not None and hyp_tokens is not None  # noqa: S101 - worded sides only
    words = words if words is not None else unit_words(ref_side, hyp_side)
    with unit_pool(1, 0) as inline:
        runner = pool if pool is not None else inline
        futures = (
            runner.submit(unit_wer.cpwer, *words, with_steps),
            runner.submit(unit_wer.tcpwer, *words, tcp_collar),
            runner.submit(unit_wer.agnostic_wer, *words),
        )
        cp, tcp, agnostic = (future.result() for future in futures)
    orc, note = None, ""  # meeteval refuses ORC matching of more streams; it may not fit
    streams = len({s.speaker for s in hypothesis})
    states = tcorc_states(reference, hyp_side, tcp_collar)
    size = sum(len(t) for t in ref_tokens) * max(stream_tokens(hyp_side).values(), default=0)
    if streams <= ORC_MAX_STREAMS and states <= TCORC_MAX_STATES and size <= TCORC_MAX_SIZE:
        ref, hyp = seglst(reference, session, ref_tokens), seglst(hypothesis, session, hyp_tokens)
        orc = _counts(meeteval.wer.tcorcwer(ref, hyp, **timing_conventions(tcp_collar))[session])
    else:
        note = (
            f"tcorcwer not computed: {streams} hypothesis streams, {states:.3g} matching states "
            f"for one reference utterance, {size:,} reference x longest stream tokens (limits "
            f"{ORC_MAX_STREAMS} streams, {TCORC_MAX_STATES:.0e} states, {TCORC_MAX_SIZE:,} "
            "tokens: meeteval's matching would need over 0.5 GB)"
        )
    return SessionWer(
        _counts(cp),
        _counts(tcp),
        _counts(agnostic),
        orc,
        tcp.assignment,
        note,
        cp.assignment,
        words,
        {"cp": cp.steps, "tcp": tcp.steps},
    )


def timing_conventions(tcp_collar: float) -> dict[str, Any]:
    return {
        "collar": tcp_collar,
        "ref_pseudo_word_timing": REF_PSEUDO_WORD_TIMING,
        "hyp_pseudo_word_timing": HYP_PSEUDO_WORD_TIMING,
    }


def stream_tokens(hyp: Side) -> dict[str, int]:
    """Tokens per hypothesis stream (speaker), in first-seen order."""
    streams: dict[str, int] = {}
    for segment, tokens in zip(hyp.segments, hyp.worded, strict=True):
        streams[segment.speaker] = streams.get(segment.speaker, 0) + len(tokens)
    return streams


def bounded_orcwer(ref: Side, hyp: Side, session: str) -> tuple[WordErrors | None, str]:
    """meeteval's (unconstrained) ORC-WER, or ``(None, why)`` when its matching is too large.

    The matching is exponential in the hypothesis streams: it runs when
    ``utterances x prod_k (tokens of stream k + 1)`` is at most
    :data:`ORC_MAX_CELLS` and there are at most :data:`ORC_MAX_STREAMS` streams.
    """
    import math

    import meeteval

    (reference, ref_tokens), (hypothesis, hyp_tokens) = (
        (ref.segments, ref.worded),
        (
            hyp.segments,
            hyp.worded,
        ),
    )
    streams = stream_tokens(hyp)
    utterances = sum(1 for tokens in ref_tokens if tokens)
    cells = max(1, utterances) * math.prod(n + 1 for n in streams.values())
    if len(streams) > ORC_MAX_STREAMS or cells > ORC_MAX_CELLS:
        return None, (
            f"orcwer not computed: {len(streams)} hypothesis streams need {cells:.3g} matching "
            f"cells (limit {ORC_MAX_CELLS:.0e})"
        )
    inserted, deleted = sum(streams.values()), sum(len(t) for t in ref_tokens)
    if not inserted or not deleted:  # one side without words (meeteval 0.4.3 fails an assertion)
        return WordErrors(inserted + deleted, deleted, 0, inserted, deleted), ""
    # meeteval 0.4.3 (and its main branch, 2025-10) fails an internal assertion when a
    # hypothesis segment holds no word beside others; such a segment has nothing to match,
    # so leaving it out cannot change the minimal cost
    worded = [(s, t) for s, t in zip(hypothesis, hyp_tokens, strict=True) if t]
    ref_list = seglst(reference, session, ref_tokens)
    hyp_list = seglst([s for s, _ in worded], session, [t for _, t in worded])
    try:
        with quiet_meeteval():
            return _counts(meeteval.wer.orcwer(ref_list, hyp_list)[session]), ""
    except MemoryError:
        return None, f"orcwer not computed: meeteval could not allocate {cells:.3g} matching cells"


#: tcORC-WER's matching holds, per reference utterance, prod_k (hypothesis words of stream k
#: within its collar + 1) states: it is computed when the largest such product stays under this.
TCORC_MAX_STATES = 5_000_000
#: meeteval's tcORC-WER memory grows with reference tokens x the longest hypothesis stream's
#: tokens, about 3 to 5 bytes each (benchmarks/long_transcripts.py sessions: 362 MB for 15,756
#: tokens in 5 streams, 771 MB for 30,296 in 8, 2,264 MB for 40,247 in 2): it is computed up to
#: this product (about 0.5 GB), so that scoring stays well under 1 GB.
TCORC_MAX_SIZE = 125_000_000


def tcorc_states(reference: Sequence[Segment], hyp: Side, collar: float) -> int:
    """The largest state space tcORC-WER's matching needs for one reference utterance (estimate).

    Per reference utterance: the product over hypothesis streams of one plus
    the stream's words whose pseudo-word point (``character_based_points``)
    lies within ``collar`` of the utterance.
    """
    import math
    from bisect import bisect_left, bisect_right

    points: dict[str, list[float]] = {}
    for segment, tokens in zip(hyp.segments, hyp.worded, strict=True):
        total = sum(len(t) for t in tokens)
        done = 0
        for token in tokens:
            middle = (done + len(token) / 2) / total if total else 0.5
            points.setdefault(segment.speaker, []).append(
                segment.start_time + middle * (segment.end_time - segment.start_time)
            )
            done += len(token)
    for values in points.values():
        values.sort()
    largest = 1
    for segment in reference:
        low, high = segment.start_time - collar, segment.end_time + collar
        largest = max(
            largest,
            math.prod(bisect_right(v, high) - bisect_left(v, low) + 1 for v in points.values()),
        )
    return largest
