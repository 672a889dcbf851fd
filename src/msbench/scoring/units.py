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
that reference with its own speaker permutation. The unit's scored spans
(:attr:`Unit.uem`) are its span cut to the recording's scored region (the
UEM's spans, ``scored_spans`` of ``benchmark.csv``); DER is scored on them,
and the WER family keeps the segments that meet them (meeteval's UEM rule). A
single unit spanning the recording therefore scores exactly as the
unchunked recording. A whole-recording unit runs from the first scored
instant to the last (a CHiME-6 session whose UEM starts at 40.6 s starts
there), never from 0 to the scored length.

Unit ids are file names: ``<source>__<session>`` (``::`` becomes ``__``), and
``<source>__<session>__<k>`` (k from 0, 4 digits) for chunks.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msbench.catalog import UNITS, UTTERANCES
from msbench.records import ScoredSpans, Segment
from msbench.rows import BenchmarkRow, RecordingRow
from msbench.tables import read_rows


@dataclass(frozen=True)
class Unit:
    unit_id: str
    recording_id: str
    start: float
    end: float
    scored: ScoredSpans = field(default=(), compare=False)  # the recording's scored region

    @property
    def span(self) -> tuple[float, float]:
        return (self.start, self.end)

    @property
    def uem(self) -> ScoredSpans:
        """The unit's scored spans: its span cut to the recording's scored region.

        >>> Unit("u", "a::b", 10.0, 30.0, ((0.0, 12.0), (20.0, 40.0))).uem
        ((10.0, 12.0), (20.0, 30.0))
        >>> Unit("u", "a::b", 0.0, 8.0).uem
        ((0.0, 8.0),)
        """
        if not self.scored:
            return (self.span,)
        cut = ((max(a, self.start), min(b, self.end)) for a, b in self.scored)
        return tuple((a, b) for a, b in cut if b > a)


def recording_spans(row: BenchmarkRow | RecordingRow) -> ScoredSpans:
    """A recording's scored region (``scored_spans``; else ``0 .. duration_seconds``)."""
    spans = row.get("scored_spans")
    if spans:
        return tuple((float(a), float(b)) for a, b in spans)
    return ((0.0, float(row["duration_seconds"])),)


def unit_name(recording_id: str, index: int | None = None) -> str:
    """``ami::dev00`` -> ``ami__dev00`` (or ``ami__dev00__0003`` for chunk 3).

    >>> unit_name("ami::dev00"), unit_name("ami::dev00", 3)
    ('ami__dev00', 'ami__dev00__0003')
    """
    base = recording_id.replace("::", "__")
    return base if index is None else f"{base}__{index:04d}"


def whole_recordings(recordings: Iterable[tuple[str, ScoredSpans]]) -> list[Unit]:
    """One unit per recording, from its first scored instant to its last."""
    return [
        Unit(unit_name(rid), rid, spans[0][0], spans[-1][1], spans) for rid, spans in recordings
    ]


def fixed_chunks(recordings: Iterable[tuple[str, ScoredSpans]], max_seconds: float) -> list[Unit]:
    """Consecutive chunks of ``max_seconds`` over the scored extent (the last shorter).

    >>> [(u.start, u.end) for u in fixed_chunks([("a::b", ((2.0, 12.0),))], 4.0)]
    [(2.0, 6.0), (6.0, 10.0), (10.0, 12.0)]
    """
    units = []
    for rid, spans in recordings:
        first, last = spans[0][0], spans[-1][1]
        count = max(1, math.ceil((last - first) / max_seconds - 1e-9))
        for k in range(count):
            start, end = first + k * max_seconds, min(last, first + (k + 1) * max_seconds)
            units.append(Unit(unit_name(rid, k), rid, start, end, spans))
    return units


def read_units(path: str | Path) -> list[Unit]:
    """A units manifest (``units.csv``: ``unit_id, recording_id, start, end``); each unit id once
    (a unit id names its output file: two units of one id would be scored on one file)."""
    from collections import Counter

    from msbench.errors import InputError

    units = [
        Unit(r["unit_id"], r["recording_id"], r["start"], r["end"]) for r in read_rows(UNITS, path)
    ]
    if repeated := sorted(k for k, n in Counter(u.unit_id for u in units).items() if n > 1):
        raise InputError(
            path,
            f"unit id(s) {repeated[:3]} appear more than once",
            fix="give each unit its own id",
        )
    return units


def benchmark_units(system: Mapping[str, Any], benchmark: Sequence[BenchmarkRow]) -> list[Unit]:
    """A system's units (its manifest, its chunk length, else whole recordings), each with its
    recording's scored region (its DER UEM)."""
    from dataclasses import replace

    recordings = [(r["recording_id"], recording_spans(r)) for r in benchmark]
    if system.get("units"):
        spans = dict(recordings)
        return [
            replace(u, scored=spans.get(u.recording_id, ())) for u in read_units(system["units"])
        ]
    if system.get("max_unit_seconds"):
        return fixed_chunks(recordings, float(system["max_unit_seconds"]))
    return whole_recordings(recordings)


def read_references(utterances: str | Path) -> dict[str, list[Segment]]:
    """``utterances.csv`` as each recording's reference segments, in the table's order."""
    by_recording: dict[str, list[Segment]] = {}
    for row in read_rows(UTTERANCES, utterances):
        segment = Segment(
            row["recording_id"],
            row["start_time"],
            row["end_time"],
            row["speaker"],
            row.get("words") or "",
        )
        by_recording.setdefault(row["recording_id"], []).append(segment)
    return by_recording


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
    spans: ScoredSpans,
    speech: Sequence[tuple[int, int]],
    max_seconds: float | None,
    search_seconds: float = 30.0,
) -> list[Unit]:
    """Units of at most ``max_seconds``, each cut in the longest silence of the last ``search_seconds``.

    ``spans``: the recording's scored region (units cover its first to its
    last instant); ``speech``: its reference speech, merged, in µs
    (:mod:`msbench.timeline`). Without ``max_seconds`` (or for a recording no
    longer than it) the whole recording is one unit. Where the window holds no
    silence, the cut falls at the limit. The window is at most half the limit,
    so every unit but the last is at least half as long as the limit.

    >>> [(u.start, u.end) for u in silence_cuts("a::b", ((0.0, 25.0),), [(0, 9_000_000), (11_000_000, 25_000_000)], 12.0, 5.0)]
    [(0.0, 10.0), (10.0, 22.0), (22.0, 25.0)]
    """
    from msbench.timeline import to_micros, to_seconds

    first, end = to_micros(spans[0][0]), to_micros(spans[-1][1])
    if not max_seconds or end - first <= to_micros(max_seconds):
        return [Unit(unit_name(recording_id), recording_id, spans[0][0], spans[-1][1], spans)]
    limit = to_micros(max_seconds)
    window = min(to_micros(search_seconds), limit // 2)  # a unit is at least half the limit
    cuts, position = [first], first
    while end - position > limit:
        position = _cut(speech, position + limit - window, position + limit)
        cuts.append(position)
    cuts.append(end)
    return [
        Unit(unit_name(recording_id, k), recording_id, to_seconds(a), to_seconds(b), spans)
        for k, (a, b) in enumerate(zip(cuts[:-1], cuts[1:], strict=True))
    ]


def cut_benchmark(
    benchmark: Sequence[BenchmarkRow],
    references: Mapping[str, Sequence[Segment]],
    section: Mapping[str, Any],
) -> list[Unit]:
    """Every benchmark recording cut by :func:`silence_cuts` (config section ``units``)."""
    from msbench.timeline import SpeakerTimeline

    units = []
    for row in benchmark:
        rid = str(row["recording_id"])
        speech = SpeakerTimeline.of(references.get(rid, [])).speech()
        units += silence_cuts(
            rid,
            recording_spans(row),
            speech,
            section["max_unit_seconds"],
            float(section["search_seconds"]),
        )
    return units
