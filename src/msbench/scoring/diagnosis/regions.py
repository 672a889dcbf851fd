"""Time-based checks of one unit: overlap boundaries and coverage, distance to speaker switches.

All in exact integer microseconds on merged speaker timelines (:mod:`msbench.timeline`).

- **Overlap boundaries.** Each region where two or more reference speakers
  talk has an onset and an offset; a boundary is *localised* when a
  hypothesised speech boundary (the start or end of any hypothesis speaker's
  merged turn) lies within ``boundary_tolerance`` (0.5 s) of it.
- **Overlap coverage.** Of the reference overlap time, the seconds during
  which at least one hypothesis speaker talks (``ov_covered``); and, of the
  reference speaker-time in overlap (each overlapping speaker counted), the
  seconds during which that speaker's own hypothesis speaker talks
  (``ov_speaker_covered``), with the DER's optimal speaker mapping
  (pyannote.metrics).
- **Switch distance.** For each reference utterance, the distance from its
  span to the nearest non-overlapping speaker switch (the interval from the
  previous turn's end to the next turn's start, :meth:`SpeakerTimeline.switches`);
  0 when they meet. An utterance lies in the ``±δ`` neighbourhood of a switch
  when that distance is at most ``δ``.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from msbench.timeline import Span, SpeakerTimeline, covered, merge, subtract, to_micros, total

DEFAULT_BOUNDARY_TOLERANCE = 0.5


@dataclass(frozen=True)
class OverlapChecks:
    """Counts of one unit (seconds as microseconds); ``+`` sums them."""

    ov_boundaries: int
    ov_boundaries_localised: int
    ov_time: int
    ov_covered: int
    ov_speaker_time: int
    ov_speaker_covered: int


def boundaries(timeline: SpeakerTimeline) -> list[int]:
    """Every turn start and end of every speaker, sorted, once each."""
    points = {p for turn in timeline.turns() for p in (turn.start, turn.end)}
    return sorted(points)


def within(point: int, sorted_points: Sequence[int], tolerance: int) -> bool:
    """Whether a point of ``sorted_points`` lies within ``tolerance`` of ``point``.

    >>> within(10, [0, 12], 2), within(10, [0, 13], 2)
    (True, False)
    """
    k = bisect.bisect_left(sorted_points, point - tolerance)
    return k < len(sorted_points) and sorted_points[k] <= point + tolerance


def overlap_checks(
    reference: SpeakerTimeline,
    hypothesis: SpeakerTimeline,
    ref_to_hyp: Mapping[str, str],
    tolerance: float = DEFAULT_BOUNDARY_TOLERANCE,
) -> OverlapChecks:
    """The overlap checks of one unit (see the module docstring)."""
    overlap = reference.overlap()
    hyp_points = boundaries(hypothesis)
    tol = to_micros(tolerance)
    edges = [p for span in overlap for p in span]
    speaker_time = speaker_covered = 0
    for speaker, turns in reference.turns_by_speaker.items():
        own = subtract(list(turns), subtract(list(turns), overlap))  # the speaker's overlapped time
        speaker_time += total(own)
        hyp_turns = list(hypothesis.turns_by_speaker.get(ref_to_hyp.get(speaker, ""), ()))
        speaker_covered += sum(covered(span, hyp_turns) for span in own)
    hyp_speech = hypothesis.speech()
    return OverlapChecks(
        ov_boundaries=len(edges),
        ov_boundaries_localised=sum(within(p, hyp_points, tol) for p in edges),
        ov_time=total(overlap),
        ov_covered=sum(covered(span, hyp_speech) for span in overlap),
        ov_speaker_time=speaker_time,
        ov_speaker_covered=speaker_covered,
    )


def switch_distance(span: Span, switches: Sequence[Span]) -> int | None:
    """Distance (µs) from ``span`` to the nearest switch interval; None without switches.

    ``switches`` are in time order and disjoint (:meth:`msbench.timeline.SpeakerTimeline.
    switches`), so only the last switch starting before the span ends and the first one after
    can be nearest (found by bisection).

    >>> switch_distance((0, 10), [(12, 13), (30, 31)]), switch_distance((0, 10), [(5, 6)])
    (2, 0)
    >>> switch_distance((20, 25), [(1, 2), (12, 13), (30, 31)])
    5
    """
    if not switches:
        return None
    start, end = span
    k = bisect.bisect_left(
        switches, end, key=lambda switch: switch[0]
    )  # the first starting at end+
    nearest = switches[max(0, k - 1) : k + 1]
    return min(max(0, a - end, start - b) for a, b in nearest)


def speech_union(segments: Sequence[tuple[str, float, float]]) -> list[Span]:
    return merge((to_micros(a), to_micros(b)) for _, a, b in segments if b > a)
