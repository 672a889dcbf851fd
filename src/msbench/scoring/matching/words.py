"""One side's words as meeteval prepares them for cpWER, tcpWER and ``align``, computed once.

meeteval (0.4.3, ``meeteval/wer/preprocess.py``) prepares each side on every call: it sorts
the segments by start time (``sort="segment"``: Python's stable sort, so segments that start
together keep their order), splits each segment's words on whitespace, gives each word a
pseudo-word time, groups the words by speaker in order of first appearance, and applies the
tcpWER collar to the hypothesis. A 160-minute unit's scoring called that five times (cpWER,
tcpWER, the speaker-agnostic WER and the diagnosis' two alignments: a fifth of its time).
:func:`side_words` does it once, into arrays, with meeteval's own arithmetic:

``character_based``         (the reference) a segment of one word keeps its interval; a
                            segment of ``n > 1`` words gives word ``k`` the interval
                            ``(a + L c_{k-1}, a + L c_k)`` with ``c_k`` the cumulative
                            character count and ``L = (b - a) / c_n`` (numpy float64, as
                            meeteval computes it, so the times are equal bit for bit);
``character_based_points``  (the hypothesis) the midpoint ``(end + start) / 2`` of that
                            interval, as a point.

A segment without words becomes one empty word in meeteval (so its speaker is still a
speaker: a speaker of only empty segments is a row of the cpWER assignment); here it is kept
as a speaker and given no word. The word ids are shared between the two sides (``ids``).
``tests/unit/test_fast_scoring.py`` holds the streams to meeteval's ``preprocess``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from msbench.records import Segment
from msbench.scoring.side import Side

CHARACTER_BASED = "character_based"
CHARACTER_BASED_POINTS = "character_based_points"


@dataclass(frozen=True)
class SideWords:
    """One side's words in meeteval's order: segments by start (stable), words in order.

    Per word: ``symbols`` (ids shared with the other side), pseudo-word ``starts`` and
    ``ends`` (no collar), the index of its ``segment`` in the side, its ``position`` in that
    segment's tokens and its ``speaker`` (an index into ``speakers``, which are in meeteval's
    order of first appearance among the sorted segments, wordless speakers included).
    """

    symbols: np.ndarray
    starts: np.ndarray
    ends: np.ndarray
    segment: np.ndarray
    position: np.ndarray
    speaker: np.ndarray
    speakers: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.symbols)

    def of_speaker(self, index: int) -> np.ndarray:
        """The word indices of speaker ``speakers[index]``, in stream order."""
        return np.flatnonzero(self.speaker == index)

    def streams(self) -> list[np.ndarray]:
        """Each speaker's word indices, in the order of ``speakers``."""
        order = np.argsort(self.speaker, kind="stable")
        bounds = np.searchsorted(self.speaker[order], np.arange(len(self.speakers) + 1))
        return [order[bounds[k] : bounds[k + 1]] for k in range(len(self.speakers))]


def segment_order(segments: Sequence[Segment]) -> list[int]:
    """meeteval's ``sort="segment"``: indices by start time, stable.

    >>> segment_order([Segment("s", 2.0, 3.0, "A"), Segment("s", 1.0, 4.0, "B"),
    ...                Segment("s", 1.0, 2.0, "A")])
    [1, 2, 0]
    """
    return sorted(range(len(segments)), key=lambda k: segments[k].start_time)


def character_times(start: float, end: float, words: Sequence[str]) -> tuple[list, list]:
    """meeteval's ``character_based`` times of ``words`` in ``[start, end]``, bit for bit.

    >>> character_times(0.0, 3.0, ["ab", "c"])
    ([0.0, 2.0], [2.0, 3.0])
    >>> character_times(1.5, 2.5, ["word"])  # one word keeps the segment's interval
    ([1.5], [2.5])
    """
    if len(words) <= 1:
        return [start] * len(words), [end] * len(words)
    ends = np.cumsum(np.asarray([len(w) for w in words]))
    share = (end - start) / ends[-1]
    firsts = np.concatenate(([0], ends[:-1]))
    return (start + share * firsts).tolist(), (start + share * ends).tolist()


def side_words(
    segments: Sequence[Segment],
    tokens: Sequence[Sequence[str]],
    timing: str,
    ids: dict[str, int],
) -> SideWords:
    """One side's words (module docstring); ``timing``: :data:`CHARACTER_BASED` or
    :data:`CHARACTER_BASED_POINTS`; ``ids``: the word ids, shared with the other side."""
    symbols: list[int] = []
    starts: list[float] = []
    ends: list[float] = []
    segment_of: list[int] = []
    position: list[int] = []
    speaker_of: list[int] = []
    speakers: dict[str, int] = {}
    for k in segment_order(segments):
        segment = segments[k]
        speaker = speakers.setdefault(segment.speaker, len(speakers))
        words = " ".join(tokens[k]).split()  # meeteval's split of the joined tokens
        if not words:
            continue
        first, last = character_times(segment.start_time, segment.end_time, words)
        if timing == CHARACTER_BASED_POINTS:
            first = last = [(b + a) / 2 for a, b in zip(first, last, strict=True)]
        elif timing != CHARACTER_BASED:
            raise ValueError(f"unknown pseudo-word timing {timing!r}")
        symbols.extend(ids.setdefault(w, len(ids)) for w in words)
        starts.extend(first)
        ends.extend(last)
        segment_of.extend([k] * len(words))
        position.extend(range(len(words)))
        speaker_of.extend([speaker] * len(words))
    return SideWords(
        np.asarray(symbols, dtype=np.int64),
        np.asarray(starts, dtype=np.float64),
        np.asarray(ends, dtype=np.float64),
        np.asarray(segment_of, dtype=np.int64),
        np.asarray(position, dtype=np.int64),
        np.asarray(speaker_of, dtype=np.int64),
        tuple(speakers),
    )


def unit_words(reference: Side, hypothesis: Side) -> tuple[SideWords, SideWords]:
    """Both sides' words with shared ids: the reference ``character_based``, the hypothesis
    ``character_based_points`` (meeteval's defaults for tcpWER and ``align``)."""
    ids: dict[str, int] = {}
    return (
        side_words(reference.segments, reference.worded, CHARACTER_BASED, ids),
        side_words(hypothesis.segments, hypothesis.worded, CHARACTER_BASED_POINTS, ids),
    )
