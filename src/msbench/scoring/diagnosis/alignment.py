"""Word alignments of one unit, with each word's speaker, utterance and (pseudo) time.

Both alignments are meeteval's (``meeteval.wer.wer.time_constrained.align``)
on the tokens of the scoring tokenizer, every speaker of a side in one stream
sorted by segment start (``reference_sort = hypothesis_sort = "segment"``):

``agnostic_alignment``  an alignment of minimal *untimed* cost: the alignment of
                        the speaker-agnostic WER, whose error count it
                        reproduces exactly; the error decomposition reads it.
                        Untimed alignments tie often (a dropped "okay" may
                        align with an "okay" said elsewhere), so among them a
                        time-constrained one is taken: the first of the
                        collars :data:`TIE_BREAK_COLLAR` (0.5 s) and the tcpWER
                        collar whose error count is the minimal untimed count;
                        otherwise the unbounded-collar alignment.
``timed_alignment``     the tcpWER collar (5 s): a word only matches a word
                        close in time; attribution reads it.

Pseudo-word times are meeteval's defaults, as for tcpWER: a reference word
gets its share of the utterance by character count (``character_based``), a
hypothesis word the midpoint of its share (``character_based_points``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from msbench.records import Segment
from msbench.scoring.matching.banded import PruneOverflow, Tokens, align_indices, tokens_of
from msbench.scoring.side import Side
from msbench.scoring.wer import HYP_PSEUDO_WORD_TIMING, REF_PSEUDO_WORD_TIMING, quiet_meeteval

#: A collar no two words of one recording are apart by: no time constraint.
UNBOUNDED_COLLAR = 1e9
#: The first collar tried to choose among the untimed alignments of minimal cost.
TIE_BREAK_COLLAR = 0.5


@dataclass(frozen=True)
class Word:
    """One token of one side: its speaker, segment index and pseudo-word span (s)."""

    token: str
    speaker: str
    segment: int
    start: float
    end: float

    @property
    def midpoint(self) -> float:
        return (self.start + self.end) / 2


@dataclass(frozen=True)
class Pair:
    """One alignment step: a match or substitution (both), a deletion or an insertion."""

    ref: Word | None
    hyp: Word | None

    @property
    def kind(self) -> str:
        """``correct``, ``substitution``, ``deletion`` or ``insertion``."""
        if self.ref is None:
            return "insertion"
        if self.hyp is None:
            return "deletion"
        return "correct" if self.ref.token == self.hyp.token else "substitution"


def _rows(segments: Sequence[Segment], tokens: Sequence[Sequence[str]]) -> list[dict[str, Any]]:
    return [
        {
            "speaker": s.speaker,
            "start_time": s.start_time,
            "end_time": s.end_time,
            "words": " ".join(t),
            "segment": k,
        }
        for k, (s, t) in enumerate(zip(segments, tokens, strict=True))
    ]


def _word(row: dict[str, Any] | None) -> Word | None:
    if row is None:
        return None
    start, end = float(row["start_time"]), float(row["end_time"])
    return Word(row["words"], row["speaker"], int(row["segment"]), start, end)


def align_words(
    reference: Side,
    hypothesis: Side,
    collar: float,
    lower_bound: int | None = None,
    exact: bool = False,
) -> list[Pair]:
    """The alignment of all reference against all hypothesis tokens, in alignment order.

    meeteval's ``align`` (its preprocessing, its recurrence and backtrace),
    computed in memory linear in the tokens (:mod:`msbench.scoring.matching.banded`).
    ``lower_bound``: a known lower bound of the cost (``exact``: the cost itself).
    """
    ref, hyp = (
        _rows(reference.segments, reference.worded),
        _rows(hypothesis.segments, hypothesis.worded),
    )
    if not any(r["words"] for r in ref) and not any(h["words"] for h in hyp):
        return []
    with quiet_meeteval():  # the self-overlap it warns about is in the output's notes
        words = _words(ref, hyp)
    ref_words, hyp_words = words
    ids: dict[Any, int] = {}
    ref_side = tokens_of(ref_words.T["words"], ref_words.T["start_time", "end_time"], ids)
    collared = [(s - collar, e + collar) for s, e in hyp_words.T["start_time", "end_time"]]
    hyp_side = tokens_of(hyp_words.T["words"], collared, ids)
    try:
        steps = align_indices(ref_side, hyp_side, lower_bound, exact)
    except PruneOverflow:  # meeteval's own sums would wrap: its full matrix, where it fits
        steps = _meeteval_indices(ref_side, hyp_side)
    return [
        Pair(
            None if a is None else _word(ref_words[a]),
            None if b is None else _word(hyp_words[b]),
        )
        for a, b in steps
    ]


#: meeteval's full alignment matrix is used only below this many cells (4 bytes each: 1 GB).
FULL_MATRIX_CELLS = 250_000_000


def _meeteval_indices(ref: Tokens, hyp: Tokens) -> list[tuple[int | None, int | None]]:
    from meeteval.wer.matching.cy_levenshtein import (
        time_constrained_levenshtein_distance_with_alignment,
    )

    cells = (len(ref) + 1) * (len(hyp) + 1)
    if cells > FULL_MATRIX_CELLS:
        raise MemoryError(
            f"the word alignment of {len(ref)} x {len(hyp)} tokens reaches meeteval's cost "
            "ceiling in its pruned mode and is too large for its full matrix: score the unit "
            "in shorter pieces"
        )
    return time_constrained_levenshtein_distance_with_alignment(
        ref.symbols.tolist(),
        hyp.symbols.tolist(),
        list(zip(ref.starts.tolist(), ref.ends.tolist(), strict=True)),
        list(zip(hyp.starts.tolist(), hyp.ends.tolist(), strict=True)),
    )["alignment"]


def _words(ref: list[dict[str, Any]], hyp: list[dict[str, Any]]) -> tuple[Any, Any]:
    """Both sides split into pseudo-timed words exactly as meeteval's ``align`` does."""
    from meeteval.io import asseglst
    from meeteval.wer.preprocess import preprocess

    ref_words, hyp_words, _, _ = preprocess(
        asseglst(ref, required_keys=("start_time", "end_time", "words"), py_convert=None),
        asseglst(hyp, required_keys=("start_time", "end_time", "words"), py_convert=None),
        reference_sort="segment",
        hypothesis_sort="segment",
        reference_pseudo_word_level_timing=REF_PSEUDO_WORD_TIMING,
        hypothesis_pseudo_word_level_timing=HYP_PSEUDO_WORD_TIMING,
        segment_representation="word",
        segment_index=False,
        remove_empty_segments=True,
    )
    return ref_words, hyp_words


def errors(pairs: Sequence[Pair]) -> int:
    return sum(pair.kind != "correct" for pair in pairs)


def agnostic_alignment(
    reference: Side,
    hypothesis: Side,
    timed: Sequence[Pair] | None = None,
    minimal_errors: int | None = None,
) -> list[Pair]:
    """The speaker-agnostic WER's alignment, time-plausible among the minimal ones (module docstring).

    ``timed``: the alignment at the tcpWER collar, when the caller has it;
    ``minimal_errors``: the speaker-agnostic WER's error count, when the caller
    has it (meeteval's); the unbounded alignment is then computed only when no
    time-constrained one reaches that count.
    """
    untimed = None
    if minimal_errors is None:
        untimed = align_words(reference, hypothesis, UNBOUNDED_COLLAR)
        minimal_errors = errors(untimed)
    tight = align_words(reference, hypothesis, TIE_BREAK_COLLAR, minimal_errors)
    for candidate in (tight, timed):
        if candidate is not None and errors(candidate) == minimal_errors:
            return list(candidate)
    if untimed is None:
        untimed = align_words(reference, hypothesis, UNBOUNDED_COLLAR, minimal_errors, True)
    return untimed
