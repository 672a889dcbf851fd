"""The DER speaker mapping (msbench.scoring.der.speaker_mapping) is pyannote.metrics' own."""

from __future__ import annotations

import random

import pytest

from msbench.scoring.der import speaker_mapping
from msbench.timeline import SpeakerTimeline

#: needs pyannote.metrics, a core dependency (scripts/core_tests.sh)
pytestmark = pytest.mark.core


def test_the_speaker_mapping_is_pyannotes_on_seeded_sessions():
    """msbench's DER mapping (exact microseconds, one sweep) against pyannote.metrics'
    HungarianMapper on its own annotations: 200 seeded sessions of 1 to 6 speakers a side."""
    from pyannote.core import Annotation
    from pyannote.core import Segment as Interval
    from pyannote.metrics.diarization import DiarizationErrorRate

    def annotation(timeline: SpeakerTimeline) -> Annotation:
        found = Annotation()
        for k, turn in enumerate(timeline.turns()):
            found[Interval(turn.start / 1e6, turn.end / 1e6), f"t{k}"] = turn.speaker
        return found

    for seed in range(200):
        rng = random.Random(seed)
        sides = []
        for prefix in ("R", "H"):
            segments = []
            for _ in range(rng.randint(1, 30)):
                start = round(rng.uniform(0, 60), 3)
                segments.append(
                    (f"{prefix}{rng.randint(1, 6)}", start, start + rng.uniform(0.1, 8))
                )
            sides.append(SpeakerTimeline.from_segments(segments))
        theirs = DiarizationErrorRate().optimal_mapping(annotation(sides[0]), annotation(sides[1]))
        assert speaker_mapping(*sides) == {str(r): str(h) for h, r in theirs.items()}, seed
