"""Interaction features of one recording, computed from its reference segments.

All times are seconds. Interval arithmetic uses :mod:`pyannote.core`
(``Timeline.support`` to merge, ``Annotation.get_overlap`` for cross-speaker
overlap); intervals are half-open ``[start, end)``, so segments that only touch
neither overlap nor leave a gap. pyannote.core ignores pieces shorter than
1 microsecond, far below any annotation resolution.

Definitions (the names are the official MS-Bench release's field names):

``num_speakers``
    Number of distinct speaker labels with at least one segment.
``speech_duration``
    Duration of the union of all speakers' speech, ``|U|``.
``overlap_duration``
    Duration where two or more *distinct* speakers are active, ``|O|``.
    Each speaker's own overlapping segments are merged first, so a speaker
    never overlaps with itself.
``overlap_ratio``
    ``|O| / |U|``; 0 when there is no speech.
``max_concurrent_speakers``
    Largest number of distinct speakers active at one instant.
``speaker_switch_q25``
    Turns are the maximal intervals of one speaker's merged speech, ordered by
    start time (ties: end time, then speaker). A turn is a *non-overlapping
    speaker change* when it starts at or after the end of every earlier turn
    and its speaker differs from the speaker of the latest-ending earlier turn;
    its gap is its start minus that end (0 when the turns touch). A pause
    within one speaker's speech is not a change. ``speaker_switch_q25`` is the
    25th percentile of these gaps with linear interpolation between order
    statistics (NumPy's default, Hyndman-Fan type 7); with a single gap it is
    that gap. With no such change (one speaker, or every change overlaps) it
    is missing (``None``) and the recording is ineligible on the T axis.
``r_ov(u)``
    Overlap exposure of reference utterance ``u``: ``|u ∩ S_other| / |u|``,
    where ``S_other`` is the union of the other speakers' speech.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from pyannote.core import Annotation, Timeline
from pyannote.core import Segment as Interval

from msbench.records import Segment

SWITCH_PERCENTILE = 25.0


@dataclass(frozen=True)
class InteractionFeatures:
    num_speakers: int
    speech_duration: float
    overlap_duration: float
    overlap_ratio: float
    max_concurrent_speakers: int
    num_speaker_switches: int
    speaker_switch_q25: float | None


@dataclass(frozen=True)
class UtteranceExposure:
    speaker: str
    start_time: float
    end_time: float
    overlap_exposure: float


def speaker_turns(segments: Iterable[Segment]) -> dict[str, Timeline]:
    """Each speaker's merged speech (its turns) as a pyannote Timeline."""
    by_speaker: dict[str, list[Interval]] = {}
    for segment in segments:
        by_speaker.setdefault(segment.speaker, []).append(
            Interval(segment.start_time, segment.end_time)
        )
    return {
        speaker: Timeline(intervals).support() for speaker, intervals in sorted(by_speaker.items())
    }


def _as_annotation(turns: dict[str, Timeline]) -> Annotation:
    annotation = Annotation()
    for speaker, timeline in turns.items():
        for index, interval in enumerate(timeline):
            annotation[interval, index] = speaker
    return annotation


def _duration(timeline: Timeline) -> float:
    return math.fsum(interval.duration for interval in timeline)


def max_concurrency(turns: dict[str, Timeline]) -> int:
    """Sweep over turn boundaries; at equal times ends are processed before starts."""
    events = sorted(
        (time, delta)
        for timeline in turns.values()
        for interval in timeline
        for time, delta in ((interval.start, 1), (interval.end, -1))
    )
    active = peak = 0
    for _, delta in events:
        active += delta
        peak = max(peak, active)
    return peak


def switch_gaps(turns: dict[str, Timeline]) -> list[float]:
    """Gaps of the non-overlapping speaker changes (see the module docstring)."""
    ordered = sorted(
        (interval.start, interval.end, speaker)
        for speaker, timeline in turns.items()
        for interval in timeline
    )
    gaps: list[float] = []
    latest_end, latest_speaker = -math.inf, ""
    for start, end, speaker in ordered:
        if start >= latest_end and latest_speaker and speaker != latest_speaker:
            gaps.append(start - latest_end)
        if end > latest_end:
            latest_end, latest_speaker = end, speaker
    return gaps


def lower_quartile(values: Sequence[float]) -> float | None:
    """25th percentile, linear interpolation (type 7); None for no values."""
    if not values:
        return None
    return float(np.percentile(np.asarray(values, dtype=float), SWITCH_PERCENTILE))


def interaction_features(segments: Sequence[Segment]) -> InteractionFeatures:
    turns = speaker_turns(segments)
    speech = Timeline([i for t in turns.values() for i in t]).support()
    overlap = _as_annotation(turns).get_overlap()
    speech_duration = _duration(speech)
    overlap_duration = _duration(overlap)
    gaps = switch_gaps(turns)
    return InteractionFeatures(
        num_speakers=len(turns),
        speech_duration=speech_duration,
        overlap_duration=overlap_duration,
        overlap_ratio=overlap_duration / speech_duration if speech_duration > 0 else 0.0,
        max_concurrent_speakers=max_concurrency(turns),
        num_speaker_switches=len(gaps),
        speaker_switch_q25=lower_quartile(gaps),
    )


def overlap_exposures(segments: Sequence[Segment]) -> list[UtteranceExposure]:
    """``r_ov(u)`` for every reference utterance, in segment order."""
    turns = speaker_turns(segments)
    others = {
        speaker: Timeline([i for s, t in turns.items() if s != speaker for i in t]).support()
        for speaker in turns
    }
    exposures = []
    for segment in segments:
        utterance = Interval(segment.start_time, segment.end_time)
        covered = _duration(others[segment.speaker].crop(utterance, mode="intersection"))
        exposures.append(
            UtteranceExposure(
                segment.speaker,
                segment.start_time,
                segment.end_time,
                min(1.0, covered / utterance.duration) if utterance.duration > 0 else 0.0,
            )
        )
    return exposures
