"""What one recording page shows: reference lanes, overlaps, switches, features, candidates.

All times are seconds relative to the page window's start (``offset`` is the
window's start in recording time). Overlap regions and switches come from the
exact timeline (:class:`msbench.timeline.SpeakerTimeline`, integer µs): an
overlap is where two or more distinct speakers talk; a switch is a
non-overlapping speaker change, drawn as the gap between the two turns.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import Any

from msbench.construction.condition_space import AXIS_ORDER, ConditionSpace
from msbench.construction.replacement import profile_distance
from msbench.timeline import SpeakerTimeline, to_seconds

PAGE_FIELDS = ("recording_id", "source_dataset", "duration_seconds", "profile", "selected")


def slug(recording_id: str) -> str:
    """A file name for ``recording_id``: ASCII, no ``::``, unique by a short hash.

    >>> slug("ami::dev00"), slug("ami::trñ00")
    ('ami__dev00-5f60ef1a', 'ami__tr_00-d8328994')
    """
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", recording_id.replace("::", "__"))
    return f"{safe}-{hashlib.sha1(recording_id.encode('utf-8')).hexdigest()[:8]}"


def speaker_name(speaker: str) -> str:
    """``ami::dev00::MEE009`` -> ``MEE009``: speaker ids carry their recording
    (``<source>::<session>::<label>``); the label is kept whole, ``::`` and all.

    >>> speaker_name("ami::dev00::MEE009"), speaker_name("c::s::x::A"), speaker_name("c::s::y::A")
    ('MEE009', 'x::A', 'y::A')
    """
    return speaker.split("::", 2)[-1]


def _clip(start: float, end: float, window: tuple[float, float]) -> tuple[float, float] | None:
    low, high = max(start, window[0]), min(end, window[1])
    if high <= low:
        return None
    return round(low - window[0], 6), round(high - window[0], 6)


def reference_lanes(
    utterances: Sequence[Mapping[str, Any]], window: tuple[float, float]
) -> dict[str, Any]:
    """Speakers, segments with words, overlap regions and switches inside ``window``."""
    segments = []
    for row in utterances:
        clipped = _clip(float(row["start_time"]), float(row["end_time"]), window)
        if clipped:
            segments.append(
                {
                    "speaker": speaker_name(str(row["speaker"])),
                    "start": clipped[0],
                    "end": clipped[1],
                    "words": str(row.get("words") or ""),
                }
            )
    segments.sort(key=lambda s: (s["start"], s["end"], s["speaker"]))
    timeline = SpeakerTimeline.from_segments(
        (str(r["speaker"]), float(r["start_time"]), float(r["end_time"])) for r in utterances
    )

    def spans(pairs: Sequence[tuple[int, int]]) -> list[list[float]]:
        kept = [_clip(to_seconds(a), to_seconds(b), window) for a, b in pairs]
        return [list(span) for span in kept if span]

    switches = [
        [round(to_seconds(a) - window[0], 6), round(to_seconds(b) - window[0], 6)]
        for a, b in timeline.switches()
        if window[0] <= to_seconds(a) <= window[1]
    ]
    return {
        "speakers": sorted({s["speaker"] for s in segments}),
        "segments": segments,
        "overlaps": spans(timeline.overlap()),
        "switches": switches,
    }


def feature_rows(row: Mapping[str, Any], space: ConditionSpace) -> list[dict[str, Any]]:
    """Each axis: its feature, the value, the range label and that range's interval."""
    rows = []
    for axis in space.axes:
        label = row.get(axis.name) or None
        intervals = {r["label"]: r["interval"] for r in axis.describe_ranges()}
        rows.append(
            {
                "axis": axis.name,
                "field": axis.field,
                "value": row.get(axis.field),
                "label": label,
                "interval": intervals.get(label) if label else None,
                "why": row_reason(row, axis.name),
            }
        )
    return rows


def row_reason(row: Mapping[str, Any], axis: str) -> str:
    """Why an axis has no label (from the eligibility reasons), else empty."""
    if row.get(axis):
        return ""
    reasons = str(row.get("ineligible_reasons") or "").split("; ")
    mine = (
        r for r in reasons if r.startswith(f"{axis} ") or f"({axis})" in r or f" of {axis} " in r
    )
    return "; ".join(mine)


def closest_candidates(
    row: Mapping[str, Any], pool: Sequence[Mapping[str, Any]], selected: set[str], count: int
) -> list[dict[str, Any]]:
    """The ``count`` closest-profile pool candidates outside the selection.

    Distance as in :func:`msbench.construction.replacement.profile_distance`
    (Hamming, then ordinal), ties by recording id: the neighbourhood the next
    run's replacement chooses from is the first distance group.
    """
    if not all(row.get(axis) for axis in AXIS_ORDER):
        return []
    free = [c for c in pool if c["recording_id"] not in selected]
    ranked = sorted((profile_distance(row, c), str(c["recording_id"]), c) for c in free)
    return [
        {
            "recording_id": rid,
            "profile": candidate["profile"],
            "source": candidate["source_dataset"],
            "duration_seconds": candidate["duration_seconds"],
            "hamming": distance[0],
            "ordinal": distance[1],
        }
        for distance, rid, candidate in ranked[:count]
    ]
