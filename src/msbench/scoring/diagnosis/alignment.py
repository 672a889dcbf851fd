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

from msbench.scoring.matching.banded import PruneOverflow, Tokens, align_indices, align_within
from msbench.scoring.matching.words import SideWords, unit_words
from msbench.scoring.side import Side

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


def _word(side: Side, words: SideWords, index: int | None) -> Word | None:
    if index is None:
        return None
    k = int(words.segment[index])
    segment = side.segments[k]
    token = side.worded[k][int(words.position[index])]
    return Word(token, segment.speaker, k, float(words.starts[index]), float(words.ends[index]))


def align_words(
    reference: Side,
    hypothesis: Side,
    collar: float,
    lower_bound: int | None = None,
    exact: bool = False,
    words: tuple[SideWords, SideWords] | None = None,
) -> list[Pair]:
    """The alignment of all reference against all hypothesis tokens, in alignment order.

    meeteval's ``align`` (its preprocessing, :mod:`msbench.scoring.matching.words`; its
    recurrence and backtrace), computed in memory linear in the tokens
    (:mod:`msbench.scoring.matching.banded`). ``lower_bound``: a known lower bound of the
    cost (``exact``: the cost itself); ``words``: both sides' prepared words, when the caller
    has them (scoring prepares them once a unit).
    """
    ref_words, hyp_words = words if words is not None else unit_words(reference, hypothesis)
    if not len(ref_words) and not len(hyp_words):
        return []
    ref_side = Tokens(ref_words.symbols, ref_words.starts, ref_words.ends)
    hyp_side = Tokens(hyp_words.symbols, hyp_words.starts - collar, hyp_words.ends + collar)
    try:
        steps = align_indices(ref_side, hyp_side, lower_bound, exact)
    except PruneOverflow:  # meeteval's own sums would wrap: its full matrix, where it fits
        steps = _meeteval_indices(ref_side, hyp_side)
    return _pairs(reference, hypothesis, (ref_words, hyp_words), steps)


def _pairs(
    reference: Side,
    hypothesis: Side,
    words: tuple[SideWords, SideWords],
    steps: Sequence[tuple[int | None, int | None]],
) -> list[Pair]:
    return [Pair(_word(reference, words[0], a), _word(hypothesis, words[1], b)) for a, b in steps]


def align_if_minimal(
    reference: Side,
    hypothesis: Side,
    collar: float,
    minimal: int,
    words: tuple[SideWords, SideWords],
) -> list[Pair] | None:
    """:func:`align_words` where its alignment costs ``minimal`` errors, else None (computed in
    the band of that bound only: a costlier alignment is not needed)."""
    ref_words, hyp_words = words
    if not len(ref_words) and not len(hyp_words):
        return []
    ref_side = Tokens(ref_words.symbols, ref_words.starts, ref_words.ends)
    hyp_side = Tokens(hyp_words.symbols, hyp_words.starts - collar, hyp_words.ends + collar)
    try:
        steps = align_within(ref_side, hyp_side, minimal)
    except PruneOverflow:
        steps = _meeteval_indices(ref_side, hyp_side)
    if steps is None:
        return None
    pairs = _pairs(reference, hypothesis, words, steps)
    return pairs if errors(pairs) == minimal else None


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


def errors(pairs: Sequence[Pair]) -> int:
    return sum(pair.kind != "correct" for pair in pairs)


def agnostic_alignment(
    reference: Side,
    hypothesis: Side,
    timed: Sequence[Pair] | None = None,
    minimal_errors: int | None = None,
    words: tuple[SideWords, SideWords] | None = None,
    tight: Sequence[Pair] | None = None,
    tight_known: bool = False,
) -> list[Pair]:
    """The speaker-agnostic WER's alignment, time-plausible among the minimal ones (module docstring).

    ``timed``: the alignment at the tcpWER collar, when the caller has it;
    ``minimal_errors``: the speaker-agnostic WER's error count, when the caller
    has it (meeteval's); the unbounded alignment is then computed only when no
    time-constrained one reaches that count. ``words``: as for :func:`align_words`;
    ``tight``, ``tight_known``: :func:`tight_alignment`, when the caller computed it (with
    ``minimal_errors``; None: it does not reach them).
    """
    words = words if words is not None else unit_words(reference, hypothesis)
    untimed = None
    if minimal_errors is None:
        untimed = align_words(reference, hypothesis, UNBOUNDED_COLLAR, words=words)
        minimal_errors = errors(untimed)
    if not tight_known:
        tight = tight_alignment(reference, hypothesis, minimal_errors, words)
    for candidate in (tight, timed):
        if candidate is not None and errors(candidate) == minimal_errors:
            return list(candidate)
    if untimed is None:
        untimed = align_words(
            reference, hypothesis, UNBOUNDED_COLLAR, minimal_errors, True, words=words
        )
    return untimed


def tight_alignment(
    reference: Side, hypothesis: Side, minimal_errors: int, words: tuple[SideWords, SideWords]
) -> list[Pair] | None:
    """The alignment at :data:`TIE_BREAK_COLLAR` where it reaches ``minimal_errors``, else None."""
    return align_if_minimal(reference, hypothesis, TIE_BREAK_COLLAR, minimal_errors, words)
