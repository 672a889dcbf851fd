"""Inference units: the pieces of recordings a system is run on, and the reference of each.

A unit is ``(unit_id, recording_id, start, end)`` in recording time. Whole
recordings by default (one unit per recording); ``max_unit_seconds`` splits
each recording into consecutive chunks of that length (the last one shorter),
as a system that cut its input that way did; or a units manifest (CSV
``unit_id, recording_id, start, end``) gives them exactly. ``msbench units``
writes such a manifest, with cuts in silences (:func:`silence_cuts`).

**Which reference belongs to a unit.** A reference utterance belongs to the
unit that holds its midpoint (``start <= mid < end``); its words are not cut
(utterances have no word times in STM references). Each unit is scored against
that reference with its own speaker permutation, and the DER's UEM is the
unit's span. A single unit spanning the recording therefore scores exactly as
the unchunked recording.

Unit ids are file names: ``<source>__<session>`` (``::`` becomes ``__``), and
``<source>__<session>__<k>`` (k from 0, 4 digits) for chunks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from msbench.records import Segment
from msbench.tables import read_table

UNIT_COLUMNS = ("unit_id", "recording_id", "start", "end")


@dataclass(frozen=True)
class Unit:
    unit_id: str
    recording_id: str
    start: float
    end: float

    @property
    def span(self) -> tuple[float, float]:
        return (self.start, self.end)


def unit_name(recording_id: str, index: int | None = None) -> str:
    """``ami::dev00`` -> ``ami__dev00`` (or ``ami__dev00__0003`` for chunk 3).

    >>> unit_name("ami::dev00"), unit_name("ami::dev00", 3)
    ('ami__dev00', 'ami__dev00__0003')
    """
    base = recording_id.replace("::", "__")
    return base if index is None else f"{base}__{index:04d}"


def whole_recordings(recordings: Iterable[tuple[str, float]]) -> list[Unit]:
    return [Unit(unit_name(rid), rid, 0.0, duration) for rid, duration in recordings]


def fixed_chunks(recordings: Iterable[tuple[str, float]], max_seconds: float) -> list[Unit]:
    """Consecutive chunks of ``max_seconds`` (the last shorter); one recording -> >= 1 unit."""
    units = []
    for rid, duration in recordings:
        count = max(1, math.ceil(duration / max_seconds - 1e-9))
        for k in range(count):
            units.append(
                Unit(unit_name(rid, k), rid, k * max_seconds, min(duration, (k + 1) * max_seconds))
            )
    return units


def read_units(path: str | Path) -> list[Unit]:
    return [
        Unit(str(r["unit_id"]), str(r["recording_id"]), float(r["start"]), float(r["end"]))
        for r in read_table(path)
    ]


def unit_reference(utterances: Sequence[Segment], unit: Unit) -> list[Segment]:
    """The utterances whose midpoint lies in ``[unit.start, unit.end)``."""
    return [u for u in utterances if unit.start <= (u.start_time + u.end_time) / 2 < unit.end]


def _cut(spans: Sequence[tuple[int, int]], low: int, high: int) -> int:
    """The middle of the longest silence inside ``[low, high]`` (µs), else ``high``."""
    best, best_length, previous = high, 0, low
    for start, end in spans:
        if end <= low:
            previous = max(previous, end)
            continue
        gap_start, gap_end = max(previous, low), min(start, high)
        if gap_end - gap_start > best_length:
            best, best_length = (gap_start + gap_end) // 2, gap_end - gap_start
        previous = max(previous, end)
        if previous >= high:
            break
    if previous < high and high - previous > best_length:
        best = (previous + high) // 2
    return best


def silence_cuts(
    recording_id: str,
    duration: float,
    speech: Sequence[tuple[int, int]],
    max_seconds: float | None,
    search_seconds: float = 30.0,
) -> list[Unit]:
    """Units of at most ``max_seconds``, each cut in the longest silence of the last ``search_seconds``.

    ``speech``: the recording's reference speech, merged, in µs
    (:mod:`msbench.timeline`). Without ``max_seconds`` (or for a recording no
    longer than it) the whole recording is one unit. Where the window holds no
    silence, the cut falls at the limit. The window is at most half the limit,
    so every unit but the last is at least half as long as the limit.

    >>> [(u.start, u.end) for u in silence_cuts("a::b", 25.0, [(0, 9_000_000), (11_000_000, 25_000_000)], 12.0, 5.0)]
    [(0.0, 10.0), (10.0, 22.0), (22.0, 25.0)]
    """
    from msbench.timeline import to_micros, to_seconds

    end = to_micros(duration)
    if not max_seconds or duration <= max_seconds:
        return [Unit(unit_name(recording_id), recording_id, 0.0, duration)]
    limit = to_micros(max_seconds)
    window = min(to_micros(search_seconds), limit // 2)  # a unit is at least half the limit
    cuts, position = [0], 0
    while end - position > limit:
        position = _cut(speech, position + limit - window, position + limit)
        cuts.append(position)
    cuts.append(end)
    return [
        Unit(unit_name(recording_id, k), recording_id, to_seconds(a), to_seconds(b))
        for k, (a, b) in enumerate(zip(cuts[:-1], cuts[1:], strict=True))
    ]
