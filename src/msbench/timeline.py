"""Speaker timelines in exact integer microseconds: turns, speech, overlap, clean regions, switches.

Everything that needs "who speaks when" calls this module: the interaction
features, the similarity segment choice, and later scoring and probes.

**Exact time.** Adapters parse every time from its text; an end given as
start + duration is summed on the decimal texts (:func:`exact_sum`), so each
time is the float nearest to what the file says. The timeline turns it into
an integer number of microseconds with :func:`to_micros` (rounded to the
nearest microsecond). All interval
arithmetic below is integer arithmetic, so ``46.92 + 7.56`` (which is
``54.480000000000004`` as a float sum) and ``54.48`` are the same instant and
two turns that touch do touch. No annotation format we read has a finer
resolution than 1 microsecond. Nothing here depends on a process-global
setting (pyannote.core's precision, for one).

**Closure.** Intervals are half-open ``[start, end)``: touching intervals
neither overlap nor leave a gap, and an interval of length 0 is empty.

A tiny example (``A`` and ``B`` speak, ``#`` marks overlap)::

    A  |=====|        |====|
    B      |======|
       0   4 6    11  14   19      (x 1 s)
    overlap: [4, 6)   speech: [0, 11) + [14, 19)
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cached_property
from typing import Protocol

MICROS_PER_SECOND = 1_000_000

#: A half-open interval ``[start, end)`` in integer microseconds.
Span = tuple[int, int]


def to_micros(seconds: float) -> int:
    """Seconds to the nearest integer microsecond.

    >>> to_micros(46.92 + 7.56) == to_micros(54.48) == 54_480_000
    True
    """
    return round(seconds * MICROS_PER_SECOND)


def exact_sum(start: float | str, duration: float | str) -> float:
    """``start + duration`` computed on their decimal texts, as the nearest float.

    RTTM and lhotse give a start and a duration; their float sum can miss the
    next segment's start (``46.92 + 7.56 = 54.480000000000004``). Summing the
    decimal texts (a float's shortest ``repr`` is its text) gives the end the
    file means.

    >>> exact_sum(46.92, 7.56), exact_sum("0.1", "0.2")
    (54.48, 0.3)
    """
    return float(Decimal(str(start)) + Decimal(str(duration)))


def exact_difference(end: float | str, start: float | str) -> float:
    """``end - start`` on their decimal texts (a duration, or a time moved into a unit's time).

    >>> exact_difference(54.48, 46.92), 54.48 - 46.92
    (7.56, 7.559999999999995)
    """
    return float(Decimal(str(end)) - Decimal(str(start)))


def parse_seconds(value: object) -> float:
    """A time as annotation files write it, to seconds: ``12.5``, ``"12.50"``, ``"0:01:02.37"``.

    Clock strings ``[[H:]M:]S.s`` are summed on their decimal texts, so
    ``"0:01:02.37"`` is exactly 62.37 (a float sum gives 62.370000000000005). Every field after
    the first is below 60 and none is negative: ``"00:75.00"`` is no clock (it was read as 75 s).

    >>> parse_seconds("0:01:02.37"), parse_seconds("1:00:00"), parse_seconds(3), parse_seconds("95:00")
    (62.37, 3600.0, 3.0, 5700.0)
    >>> parse_seconds("00:75.00")
    Traceback (most recent call last):
    ...
    ValueError: not a time: '00:75.00' (a minutes or seconds field must be below 60)
    """
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ValueError(f"not a time: {value!r}")
    if not isinstance(value, str):
        return float(value)
    seconds = Decimal(0)
    try:
        fields = [Decimal(part) for part in value.strip().split(":")]
    except InvalidOperation as error:
        raise ValueError(f"not a time: {value!r}") from error
    clock = len(fields) > 1
    if clock and (any(f < 0 for f in fields) or any(f >= 60 for f in fields[1:])):
        raise ValueError(f"not a time: {value!r} (a minutes or seconds field must be below 60)")
    for field in fields:
        seconds = seconds * 60 + field
    if not seconds.is_finite():
        raise ValueError(f"not a finite time: {value!r}")
    return float(seconds)


def to_seconds(micros: int) -> float:
    """Integer microseconds to seconds.

    >>> to_seconds(54_480_000)
    54.48
    """
    return micros / MICROS_PER_SECOND


def merge(spans: Iterable[Span]) -> list[Span]:
    """Union of intervals, as sorted disjoint non-touching intervals (empty ones dropped).

    >>> merge([(5, 8), (0, 3), (3, 4), (7, 9), (10, 10)])
    [(0, 4), (5, 9)]
    """
    merged: list[Span] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def total(spans: Iterable[Span]) -> int:
    """Summed length of intervals (microseconds).

    >>> total([(0, 4), (5, 9)])
    8
    """
    return sum(end - start for start, end in spans)


def subtract(spans: Sequence[Span], removed: Sequence[Span]) -> list[Span]:
    """``spans`` minus ``removed``; both sorted and disjoint (as :func:`merge` returns them).

    >>> subtract([(0, 10)], [(2, 3), (5, 7)])
    [(0, 2), (3, 5), (7, 10)]
    """
    result: list[Span] = []
    k = 0
    for start, end in spans:
        while k < len(removed) and removed[k][1] <= start:
            k += 1
        cursor, j = start, k
        while j < len(removed) and removed[j][0] < end:
            if removed[j][0] > cursor:
                result.append((cursor, removed[j][0]))
            cursor = max(cursor, removed[j][1])
            j += 1
        if cursor < end:
            result.append((cursor, end))
    return result


def covered(span: Span, spans: Sequence[Span]) -> int:
    """Length of ``span`` covered by sorted disjoint ``spans``.

    >>> covered((2, 8), [(0, 3), (5, 6), (7, 20)])
    3
    """
    start, end = span
    first = max(0, bisect_right(spans, (start, start)) - 1)
    length = 0
    for a, b in spans[first:]:
        if a >= end:
            break
        length += max(0, min(end, b) - max(start, a))
    return length


def at_least(spans_by_speaker: Mapping[str, Sequence[Span]], count: int) -> list[Span]:
    """Where at least ``count`` distinct speakers are active, by one sweep over the boundaries.

    Each speaker's intervals must already be merged (a speaker never overlaps
    itself). At equal times ends are taken before starts (half-open).

    >>> at_least({"A": [(0, 6), (14, 19)], "B": [(4, 11)]}, 2)
    [(4, 6)]
    """
    events = sorted(
        (time, delta)
        for spans in spans_by_speaker.values()
        for start, end in spans
        for time, delta in ((start, 1), (end, -1))
    )
    result: list[Span] = []
    active, opened = 0, 0
    for time, delta in events:
        before = active
        active += delta
        if before < count <= active:
            opened = time
        elif active < count <= before and time > opened:
            result.append((opened, time))
    return merge(result)


def lower_quartile(values: Sequence[float]) -> float | None:
    """25th percentile, linear interpolation between order statistics (Hyndman-Fan type 7).

    NumPy's default method (``numpy.percentile(values, 25)``, used here so that
    the floating-point rounding is NumPy's too); one value gives that value; no
    values give None.

    >>> lower_quartile([0.0, 1.0, 2.0, 3.0, 4.0])
    1.0
    >>> lower_quartile([0.5, 0.1]), lower_quartile([0.3]), lower_quartile([]) is None
    (0.2, 0.3, True)
    """
    if not values:
        return None
    import numpy as np

    return float(np.percentile(np.asarray(values, dtype=float), 25.0))


class Timed(Protocol):
    """Anything with a speaker and times in seconds (:class:`msbench.records.Segment`)."""

    @property
    def speaker(self) -> str: ...
    @property
    def start_time(self) -> float: ...
    @property
    def end_time(self) -> float: ...


@dataclass(frozen=True)
class Turn:
    """One maximal interval of one speaker's merged speech."""

    speaker: str
    start: int
    end: int


@dataclass(frozen=True)
class SpeakerTimeline:
    """Each speaker's merged speech, in exact microseconds; built by :meth:`from_segments`.

    >>> timeline = SpeakerTimeline.from_segments([("A", 0, 6), ("B", 4, 11), ("A", 14, 19)])
    >>> timeline.speech(), timeline.overlap(), timeline.clean("A")
    ([(0, 11000000), (14000000, 19000000)], [(4000000, 6000000)], [(0, 4000000), (14000000, 19000000)])
    """

    turns_by_speaker: dict[str, tuple[Span, ...]]

    @classmethod
    def from_segments(cls, segments: Iterable[tuple[str, float, float]]) -> SpeakerTimeline:
        """From ``(speaker, start_seconds, end_seconds)`` triples; two speakers never collide."""
        by_speaker: dict[str, list[Span]] = {}
        for speaker, start, end in segments:
            by_speaker.setdefault(speaker, []).append((to_micros(start), to_micros(end)))
        return cls({s: tuple(merge(spans)) for s, spans in sorted(by_speaker.items())})

    @classmethod
    def of(cls, segments: Iterable[Timed]) -> SpeakerTimeline:
        """From segments (``speaker``, ``start_time``, ``end_time``); zero-length ones hold nothing."""
        return cls.from_segments((s.speaker, s.start_time, s.end_time) for s in segments)

    @property
    def speakers(self) -> tuple[str, ...]:
        """Speakers with at least one non-empty turn, sorted."""
        return tuple(s for s, spans in self.turns_by_speaker.items() if spans)

    def turns(self) -> list[Turn]:
        """Every turn, ordered by start, then end, then speaker."""
        ordered = sorted(
            (start, end, speaker)
            for speaker, spans in self.turns_by_speaker.items()
            for start, end in spans
        )
        return [Turn(speaker, start, end) for start, end, speaker in ordered]

    def speech(self) -> list[Span]:
        """Union of all speakers' speech."""
        return merge(s for spans in self.turns_by_speaker.values() for s in spans)

    def overlap(self) -> list[Span]:
        """Where two or more distinct speakers are active."""
        return at_least(self.turns_by_speaker, 2)

    @cached_property
    def _others(self) -> dict[str, list[Span]]:
        return {
            speaker: merge(
                s
                for other, spans in self.turns_by_speaker.items()
                if other != speaker
                for s in spans
            )
            for speaker in self.turns_by_speaker
        }

    def others(self, speaker: str) -> list[Span]:
        """Union of every other speaker's speech ("the other speakers' speech")."""
        if speaker not in self._others:
            return self.speech()
        return self._others[speaker]

    def clean(self, speaker: str) -> list[Span]:
        """The speaker's speech where nobody else speaks (single-speaker regions)."""
        return subtract(list(self.turns_by_speaker.get(speaker, ())), self.others(speaker))

    def max_concurrency(self) -> int:
        """Largest number of distinct speakers active over an interval of positive length.

        One sweep over the boundaries, ends before starts at equal times (half-open):
        a count only counts once time moves on with it.

        >>> SpeakerTimeline.from_segments([("A", 0, 2), ("B", 2, 3), ("C", 1, 2)]).max_concurrency()
        2
        """
        events = sorted(
            (time, delta)
            for spans in self.turns_by_speaker.values()
            for start, end in spans
            for time, delta in ((start, 1), (end, -1))
        )
        best = active = 0
        for k, (time, delta) in enumerate(events):
            active += delta
            if k + 1 < len(events) and events[k + 1][0] > time:
                best = max(best, active)
        return best

    def switch_gaps(self) -> list[int]:
        """Gaps (microseconds) of the non-overlapping speaker changes, in time order.

        A turn is a *non-overlapping speaker change* when it starts at or after
        the end of every earlier turn (turns ordered by start, end, speaker) and
        its speaker differs from the *previous* speaker: the speaker of the
        latest-ending earlier turn. **Tie rule**: when several earlier turns end
        at that same latest instant, the previous speaker is the one whose turn
        comes first in that order (earliest start, then shortest, then speaker
        label). Its gap is its start minus that end (0 when they touch). A pause
        inside one speaker's speech is not a change.

        >>> SpeakerTimeline.from_segments(
        ...     [("A", 0, 2), ("B", 2, 3), ("B", 3.5, 4), ("A", 4.25, 5)]).switch_gaps()
        [0, 250000]
        """
        return [start - end for end, start in self.switches()]

    def switches(self) -> list[Span]:
        """Each non-overlapping speaker change as ``(end of the previous turn, start of the next)``.

        The changes of :meth:`switch_gaps`, same rules, in time order.

        >>> SpeakerTimeline.from_segments([("A", 0, 2), ("B", 2.5, 3)]).switches()
        [(2000000, 2500000)]
        """
        changes: list[Span] = []
        latest_end: int | None = None
        latest_speaker = ""
        for turn in self.turns():
            if latest_end is not None and turn.start >= latest_end:
                if turn.speaker != latest_speaker:
                    changes.append((latest_end, turn.start))
            if latest_end is None or turn.end > latest_end:
                latest_end, latest_speaker = turn.end, turn.speaker
        return changes

    def exposure(self, speaker: str, start: float, end: float) -> float:
        """``r_ov(u) = |u ∩ speech of the other speakers| / |u|``; 0 for an empty utterance."""
        span = (to_micros(start), to_micros(end))
        length = span[1] - span[0]
        if length <= 0:
            return 0.0
        return covered(span, self.others(speaker)) / length
