"""Interaction features on hand-made timelines, with hand-computed expectations."""

from __future__ import annotations

import numpy as np
import pytest

from msbench.features import interaction
from msbench.features.interaction import overlap_exposures, speaker_timeline
from msbench.records import Segment
from msbench.timeline import lower_quartile, to_seconds


def segs(*items: tuple[str, float, float]) -> list[Segment]:
    return [Segment("s", start, end, speaker) for speaker, start, end in items]


def interaction_features(
    segments: list[Segment], duration: float | None = None
) -> interaction.InteractionFeatures:
    """The features, for a recording that lasts until the last segment ends (unless given)."""
    end = max((s.end_time for s in segments), default=0.0)
    return interaction.interaction_features(segments, end if duration is None else duration)


def test_overlap_ratio_is_of_the_duration_and_of_speech_beside_it():
    features = interaction_features(segs(("A", 0, 4), ("B", 3, 6)), duration=10.0)
    assert features.overlap_ratio == pytest.approx(0.1)  # 1 s / 10 s (the release's definition)
    assert features.overlap_ratio_of_speech == pytest.approx(1 / 6)  # 1 s / 6 s of speech


def switch_gaps(segments: list[Segment]) -> list[float]:
    return [to_seconds(gap) for gap in speaker_timeline(segments).switch_gaps()]


def test_two_speakers_partial_overlap():
    features = interaction_features(segs(("A", 0, 4), ("B", 3, 6)))
    assert features.num_speakers == 2
    assert features.speech_duration == pytest.approx(6.0)
    assert features.overlap_duration == pytest.approx(1.0)
    assert features.overlap_ratio == pytest.approx(1 / 6)
    assert features.max_concurrent_speakers == 2
    # B starts before A ends: an overlapping change, not a gap.
    assert features.num_speaker_switches == 0
    assert features.speaker_switch_q25 is None


def test_switch_gaps_and_type7_quartile():
    timeline = segs(("A", 0, 2), ("B", 2.5, 4), ("A", 4.1, 5), ("B", 5, 6))
    gaps = switch_gaps(timeline)
    assert gaps == pytest.approx([0.5, 0.1, 0.0])
    # sorted [0, 0.1, 0.5]; position 0.25 * (3 - 1) = 0.5 -> 0 + 0.5 * 0.1
    assert interaction_features(timeline).speaker_switch_q25 == pytest.approx(0.05)


def test_pause_within_one_speaker_is_not_a_switch():
    gaps = switch_gaps(segs(("A", 0, 1), ("A", 2, 3), ("B", 3.5, 4)))
    assert gaps == pytest.approx([0.5])


def test_single_gap_is_its_own_quartile():
    assert lower_quartile([0.3]) == pytest.approx(0.3)
    assert lower_quartile([]) is None


def test_own_overlapping_segments_are_merged_first():
    features = interaction_features(segs(("A", 0, 2), ("A", 1, 3), ("B", 2.5, 4)))
    assert features.speech_duration == pytest.approx(4.0)
    assert features.overlap_duration == pytest.approx(0.5)
    assert features.overlap_ratio == pytest.approx(0.125)
    assert features.max_concurrent_speakers == 2


def test_three_way_overlap_counts_once():
    features = interaction_features(segs(("A", 0, 10), ("B", 1, 5), ("C", 2, 3)))
    assert features.overlap_duration == pytest.approx(4.0)
    assert features.overlap_ratio == pytest.approx(0.4)
    assert features.max_concurrent_speakers == 3


def test_change_after_a_long_turn_measures_from_latest_end():
    # B is nested inside A; C starts 1 s after A (the latest-ending turn) ends.
    gaps = switch_gaps(segs(("A", 0, 10), ("B", 2, 3), ("C", 11, 12)))
    assert gaps == pytest.approx([1.0])


def test_touching_turns_neither_overlap_nor_pause():
    features = interaction_features(segs(("A", 0, 1), ("B", 1, 2)))
    assert features.overlap_duration == 0.0
    assert features.max_concurrent_speakers == 1
    assert features.speaker_switch_q25 == 0.0


def test_no_speech_and_single_speaker_conventions():
    empty = interaction_features([])
    assert (empty.num_speakers, empty.overlap_ratio, empty.speaker_switch_q25) == (0, 0.0, None)
    single = interaction_features(segs(("A", 0, 1), ("A", 2, 3)))
    assert single.num_speakers == 1
    assert single.overlap_ratio == 0.0
    assert single.speaker_switch_q25 is None


def test_overlap_exposure_per_utterance():
    exposures = overlap_exposures(segs(("A", 0, 4), ("B", 3, 6), ("B", 7, 8)))
    assert [e.overlap_exposure for e in exposures] == pytest.approx([0.25, 1 / 3, 0.0])


def test_max_concurrency_ends_before_starts():
    assert speaker_timeline(segs(("A", 0, 1), ("B", 1, 2), ("C", 2, 3))).max_concurrency() == 1


def grid_reference(segments: list[Segment], resolution: int = 1000) -> tuple[float, float, int]:
    """Independent computation on an exact integer grid: (speech, overlap, max concurrency)."""
    end = max(int(round(s.end_time * resolution)) for s in segments)
    speakers = sorted({s.speaker for s in segments})
    activity = np.zeros((len(speakers), end), dtype=bool)
    for s in segments:
        row = speakers.index(s.speaker)
        activity[
            row, int(round(s.start_time * resolution)) : int(round(s.end_time * resolution))
        ] = True
    count = activity.sum(axis=0)
    return (count >= 1).sum() / resolution, (count >= 2).sum() / resolution, int(count.max())


@pytest.mark.parametrize("seed", range(20))
def test_exact_against_integer_grid(seed: int):
    rng = np.random.default_rng(seed)
    segments = []
    for _ in range(rng.integers(2, 40)):
        start = int(rng.integers(0, 20000))
        segments.append(
            Segment(
                "s",
                start / 1000,
                (start + int(rng.integers(1, 3000))) / 1000,
                f"S{rng.integers(0, 4)}",
            )
        )
    speech, overlap, peak = grid_reference(segments)
    features = interaction_features(segments)
    assert features.speech_duration == pytest.approx(speech, abs=1e-9)
    assert features.overlap_duration == pytest.approx(overlap, abs=1e-9)
    assert features.max_concurrent_speakers == peak
