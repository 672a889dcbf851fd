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
            recording), so msbench reports the time-constrained one.

A side with no segment in a session is given one empty placeholder segment,
so that meeteval sees the session on both sides (all deletions, or all
insertions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from msbench.records import Segment

TCP_COLLAR = 5.0
REF_PSEUDO_WORD_TIMING = "character_based"
HYP_PSEUDO_WORD_TIMING = "character_based_points"
ONE_SPEAKER = "all"
#: meeteval's ORC matching refuses more hypothesis streams than this.
ORC_MAX_STREAMS = 10


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
    tcorcwer: WordErrors | None  # None: more hypothesis speakers than meeteval's ORC allows
    assignment: tuple[tuple[str | None, str | None], ...]  # tcpWER's (ref, hyp) speaker pairs


def session_wer(
    reference: Sequence[Segment],
    ref_tokens: Sequence[Sequence[str]],
    hypothesis: Sequence[Segment],
    hyp_tokens: Sequence[Sequence[str]],
    session: str,
    tcp_collar: float = TCP_COLLAR,
) -> SessionWer:
    """The four word error counts of one session (see the module docstring)."""
    import meeteval

    ref, hyp = seglst(reference, session, ref_tokens), seglst(hypothesis, session, hyp_tokens)
    cp = meeteval.wer.cpwer(ref, hyp)[session]
    timing = timing_conventions(tcp_collar)  # the collar and pseudo-word timings, as reported
    tcp = meeteval.wer.tcpwer(ref, hyp, **timing)[session]
    one_ref = seglst(reference, session, ref_tokens, one_speaker=True)
    one_hyp = seglst(hypothesis, session, hyp_tokens, one_speaker=True)
    agnostic = meeteval.wer.cpwer(
        one_ref, one_hyp, reference_sort="segment", hypothesis_sort="segment"
    )[session]
    orc = None  # meeteval refuses ORC matching of more streams (exact and greedy alike)
    if len({s.speaker for s in hypothesis}) <= ORC_MAX_STREAMS:
        orc = _counts(meeteval.wer.tcorcwer(ref, hyp, **timing)[session])
    return SessionWer(_counts(cp), _counts(tcp), _counts(agnostic), orc, tuple(tcp.assignment))


def timing_conventions(tcp_collar: float) -> dict[str, Any]:
    return {
        "collar": tcp_collar,
        "ref_pseudo_word_timing": REF_PSEUDO_WORD_TIMING,
        "hyp_pseudo_word_timing": HYP_PSEUDO_WORD_TIMING,
    }
