"""One side of a scored session, as every scoring step takes it: its segments, their tokens and
its speaker timeline (one value instead of four parallel arguments)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from msbench.records import Segment
from msbench.timeline import SpeakerTimeline


class Side(NamedTuple):
    """``segments`` in start order; ``tokens``: each segment's tokens under the scoring
    tokenizer, None when the side holds no words (RTTM: DER alone); ``timeline``: its speech,
    built once a session (None where a step needs none)."""

    segments: Sequence[Segment]
    tokens: Sequence[Sequence[str]] | None
    timeline: SpeakerTimeline | None = None

    @property
    def worded(self) -> Sequence[Sequence[str]]:
        """The tokens, or no token for each segment of a side without words.

        >>> Side([Segment("s", 0.0, 1.0, "A")], None).worded
        [[]]
        """
        return self.tokens if self.tokens is not None else [[] for _ in self.segments]

    def of_speaker(self, speaker: str) -> tuple[Side, list[int]]:
        """The side's segments of one speaker (no timeline), and their indices in the side.

        >>> side = Side([Segment("s", 0, 1, "A"), Segment("s", 1, 2, "B")], [["x"], ["y"]])
        >>> one, ids = side.of_speaker("B")
        >>> [s.speaker for s in one.segments], one.tokens, ids
        (['B'], [['y']], [1])
        """
        ids = [k for k, s in enumerate(self.segments) if s.speaker == speaker]
        worded = self.worded
        return Side([self.segments[k] for k in ids], [worded[k] for k in ids]), ids
