"""Interaction features of one recording, computed from its reference segments.

All times are seconds in the output. Interval arithmetic is exact, in integer
microseconds (:mod:`msbench.timeline`); intervals are half-open ``[start, end)``,
so segments that only touch neither overlap nor leave a gap.

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
    ``|O| / D``, ``D`` the recording's duration (``duration_seconds``: the
    audio's length, or the total length of the UEM's spans when a UEM is
    given: scored time, not the audio's length); 0 when
    ``D`` is 0. This is the official release's definition, measured on its own
    annotations: ``aishell4::M_R003S01C01`` overlaps 127.63 s, and
    127.63 / 2282.21 (its ``duration_seconds``) is exactly the published
    0.055924, while ``|O| / |U|`` gives 0.062; the same holds to 1e-6 for the
    DiPCo, AISHELL-5 and SmartGlasses recordings. (The release's documentation
    says "concurrent speech / total reference speech"; its numbers, and the
    O0 to O4 ranges applied to them, say otherwise.)
``overlap_ratio_of_speech``
    ``|O| / |U|``, the speech-normalised ratio; 0 when there is no speech.
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
    that gap. When several earlier turns end at the latest instant, the
    previous speaker is the first of them in turn order
    (:meth:`msbench.timeline.SpeakerTimeline.switch_gaps`). With no such change (one speaker, or every change overlaps) it
    is missing (``None``) and the recording is ineligible on the T axis.
``r_ov(u)``
    Overlap exposure of reference utterance ``u``: ``|u ∩ S_other| / |u|``,
    where ``S_other`` is the union of the other speakers' speech.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from msbench.records import Segment
from msbench.timeline import SpeakerTimeline, lower_quartile, to_micros, to_seconds, total


@dataclass(frozen=True)
class InteractionFeatures:
    num_speakers: int
    speech_duration: float
    overlap_duration: float
    overlap_ratio: float
    overlap_ratio_of_speech: float
    max_concurrent_speakers: int
    num_speaker_switches: int
    speaker_switch_q25: float | None


@dataclass(frozen=True)
class UtteranceExposure:
    speaker: str
    start_time: float
    end_time: float
    words: str | None
    overlap_exposure: float


def speaker_timeline(segments: Sequence[Segment]) -> SpeakerTimeline:
    """The exact speaker timeline of a recording's reference segments."""
    return SpeakerTimeline.of(segments)


def interaction_features(
    segments: Sequence[Segment],
    duration: float,
    scored_spans: Sequence[tuple[float, float]] | None = None,
) -> InteractionFeatures:
    """The features of one recording of ``duration`` seconds (see the module docstring).

    ``scored_spans``: the scored region (a UEM's spans). A speaker change whose
    gap holds unscored time (a gap between two spans) is not a change: what
    happens in unscored time is unknown, so its gap is not measured
    (:func:`changes_across_gaps` counts them).
    """
    timeline = speaker_timeline(segments)
    speech = total(timeline.speech())
    overlap = total(timeline.overlap())
    scored = to_micros(duration)
    holes = unscored_gaps(scored_spans or ())
    gaps = [to_seconds(b - a) for a, b in timeline.switches() if not _meets(a, b, holes)]
    return InteractionFeatures(
        num_speakers=len(timeline.speakers),
        speech_duration=to_seconds(speech),
        overlap_duration=to_seconds(overlap),
        overlap_ratio=overlap / scored if scored > 0 else 0.0,
        overlap_ratio_of_speech=overlap / speech if speech > 0 else 0.0,
        max_concurrent_speakers=timeline.max_concurrency(),
        num_speaker_switches=len(gaps),
        speaker_switch_q25=lower_quartile(gaps),
    )


def unscored_gaps(spans: Sequence[tuple[float, float]]) -> list[tuple[int, int]]:
    """The gaps between consecutive scored spans, in µs.

    >>> unscored_gaps([(0.0, 5.0), (8.0, 10.0)])
    [(5000000, 8000000)]
    """
    micro = [(to_micros(a), to_micros(b)) for a, b in spans]
    return [(a[1], b[0]) for a, b in zip(micro, micro[1:], strict=False) if b[0] > a[1]]


def _meets(start: int, end: int, holes: Sequence[tuple[int, int]]) -> bool:
    return any(min(end, b) > max(start, a) for a, b in holes)


def changes_across_gaps(
    segments: Sequence[Segment], scored_spans: Sequence[tuple[float, float]]
) -> int:
    """Speaker changes not counted because their gap holds unscored time."""
    holes = unscored_gaps(scored_spans)
    return sum(_meets(a, b, holes) for a, b in speaker_timeline(segments).switches())


def overlap_exposures(
    segments: Sequence[Segment], utterances: Sequence[Segment] | None = None
) -> list[UtteranceExposure]:
    """``r_ov(u)`` of every utterance (default: the segments), against the segments' timeline.

    A source whose words come from a separate transcript (RTTM + STM) passes
    the transcript's utterances: their exposure is measured against the
    speaker timeline of the annotation, by speaker label.
    """
    timeline = speaker_timeline(segments)
    return [
        UtteranceExposure(
            u.speaker,
            u.start_time,
            u.end_time,
            u.words,
            timeline.exposure(u.speaker, u.start_time, u.end_time),
        )
        for u in (segments if utterances is None else utterances)
    ]
