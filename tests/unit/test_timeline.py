"""The exact speaker timeline: hand-made failure cases, random timelines, 170 real AMI meetings.

The reference in this file is written independently of :mod:`msbench.timeline`:
times are ``fractions.Fraction`` parsed from the file's text, speech and
overlap come from counting distinct active speakers on every elementary
interval between consecutive boundaries, and switches from a brute-force scan
over all earlier turns.
"""

from __future__ import annotations

import glob
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from msbench.features import interaction
from msbench.features.interaction import speaker_timeline
from msbench.io.rttm import read_rttm
from msbench.records import Segment
from msbench.timeline import SpeakerTimeline, at_least, exact_sum, merge, subtract, to_micros
from tests.helpers.paths import SHARED_DATA, require_shared

Triple = tuple[str, Fraction, Fraction]


def reference_features(triples: list[Triple]) -> dict[str, object]:
    """Speech, overlap, number of non-overlapping changes and their gaps, exactly."""
    points = sorted({t for _, a, b in triples for t in (a, b)})
    speakers = sorted({s for s, _, _ in triples})
    speech = overlap = Fraction(0)
    for left, right in zip(points, points[1:], strict=False):
        active = {s for s, a, b in triples if a <= left and right <= b}
        if active:
            speech += right - left
        if len(active) >= 2:
            overlap += right - left
    turns = []
    for speaker in speakers:  # merge each speaker's own segments (touching ones too)
        spans = sorted((a, b) for s, a, b in triples if s == speaker)
        merged: list[list[Fraction]] = []
        for a, b in spans:
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        turns += [(a, b, speaker) for a, b in merged]
    turns.sort()
    gaps = []
    for k, (start, _, speaker) in enumerate(turns):
        earlier = turns[:k]
        if not earlier:
            continue
        latest = max(end for _, end, _ in earlier)
        previous = next(s for _, end, s in earlier if end == latest)
        if start >= latest and speaker != previous:
            gaps.append(start - latest)
    return {"speech": speech, "overlap": overlap, "gaps": gaps}


def interaction_features(segments: list[Segment]) -> interaction.InteractionFeatures:
    return interaction.interaction_features(segments, max(s.end_time for s in segments))


def as_segments(triples: list[Triple]) -> list[Segment]:
    return [Segment("s", float(a), float(b), s) for s, a, b in triples]


def test_rttm_float_sum_touching_turns_touch():
    # 46.92 + 7.56 = 54.480000000000004 as floats: B's turn must still start exactly at A's end
    assert 46.92 + 7.56 != 54.48
    assert exact_sum(46.92, 7.56) == 54.48
    timeline = speaker_timeline(
        [Segment("s", 46.92, exact_sum(46.92, 7.56), "A"), Segment("s", 54.48, 55.0, "B")]
    )
    assert timeline.switch_gaps() == [0]
    assert timeline.overlap() == []


def test_rttm_reader_sums_start_and_duration_exactly(tmp_path: Path):
    path = tmp_path / "x.rttm"
    path.write_text(
        "SPEAKER m 1 46.92 7.56 <NA> <NA> A <NA> <NA>\nSPEAKER m 1 54.48 1.0 <NA> <NA> B <NA> <NA>\n"
    )
    (session,) = read_rttm(path)
    assert [s.end_time for s in session.segments][0] == 54.48
    assert interaction_features(session.segments).num_speaker_switches == 1


def test_identical_turns_of_two_speakers_both_count():
    features = interaction_features(
        as_segments([("A", Fraction(1), Fraction(3)), ("B", Fraction(1), Fraction(3))])
    )
    assert features.overlap_duration == 2.0 and features.overlap_ratio_of_speech == 1.0
    assert features.overlap_ratio == pytest.approx(2 / 3)  # of the 3 s the recording lasts
    assert features.max_concurrent_speakers == 2


def test_three_speakers_ending_at_the_same_instant_tie_rule():
    # A, B, C all end at 5; A's turn comes first in turn order, so A is the previous speaker:
    # B's next turn at 6 is a change (gap 1 s), A's would not be
    timeline = SpeakerTimeline.from_segments([("B", 2, 5), ("A", 0, 5), ("C", 4, 5), ("B", 6, 7)])
    assert timeline.switch_gaps() == [1_000_000]
    assert timeline.max_concurrency() == 3
    same = SpeakerTimeline.from_segments([("B", 2, 5), ("A", 0, 5), ("C", 4, 5), ("A", 6, 7)])
    assert same.switch_gaps() == []


def test_own_touching_segments_merge_into_one_turn():
    timeline = SpeakerTimeline.from_segments([("A", 0, 1), ("A", 1, 2), ("B", 2.5, 3)])
    assert timeline.turns_by_speaker["A"] == ((0, 2_000_000),)
    assert timeline.switch_gaps() == [500_000]


def test_instant_overlap_is_no_concurrency():
    # touching turns: concurrency 1, overlap 0 (no contradictory fields)
    features = interaction_features(
        as_segments([("A", Fraction(0), Fraction(1)), ("B", Fraction(1), Fraction(2))])
    )
    assert (features.max_concurrent_speakers, features.overlap_ratio) == (1, 0.0)


def test_interval_helpers():
    assert merge([(3, 4), (0, 3)]) == [(0, 4)]
    assert subtract([(0, 10), (20, 30)], [(5, 25)]) == [(0, 5), (25, 30)]
    assert at_least({"A": [(0, 10)], "B": [(5, 15)], "C": [(8, 9)]}, 3) == [(8, 9)]


def random_triples(rng: np.random.Generator) -> list[Triple]:
    triples = []
    for _ in range(int(rng.integers(2, 40))):
        start = Fraction(int(rng.integers(0, 2000)), 100)
        length = Fraction(int(rng.integers(1, 300)), 100)
        triples.append((f"S{rng.integers(0, 4)}", start, start + length))
    return triples


@pytest.mark.parametrize("seed", range(30))
def test_random_timelines_against_exact_reference(seed: int):
    triples = random_triples(np.random.default_rng(seed))
    expected = reference_features(triples)
    timeline = SpeakerTimeline.from_segments((s, float(a), float(b)) for s, a, b in triples)
    assert sum(b - a for a, b in timeline.speech()) == to_micros(float(expected["speech"]))
    assert sum(b - a for a, b in timeline.overlap()) == to_micros(float(expected["overlap"]))
    assert timeline.switch_gaps() == [to_micros(float(g)) for g in expected["gaps"]]  # type: ignore[union-attr]


def read_rttm_exact(path: str) -> dict[str, list[Triple]]:
    """RTTM lines as exact fractions, by session (independent of msbench's reader)."""
    sessions: dict[str, list[Triple]] = {}
    for line in Path(path).read_text().splitlines():
        fields = line.split()
        if fields and fields[0] == "SPEAKER":
            start = Fraction(fields[3])
            sessions.setdefault(fields[1], []).append(
                (fields[7], start, start + Fraction(fields[4]))
            )
    return sessions


AMI_RTTMS = sorted(glob.glob(str(SHARED_DATA / "ami-annotations/only_words/rttms/*/*.rttm")))


def test_all_ami_meetings_agree_with_exact_reference():
    require_shared(SHARED_DATA / "ami-annotations")
    assert len(AMI_RTTMS) >= 170
    checked = 0
    for path in AMI_RTTMS:
        exact = read_rttm_exact(path)
        for session in read_rttm(path):
            triples = exact[session.session_id]
            expected = reference_features(triples) if len(triples) < 400 else None
            features = interaction_features(session.segments)
            if expected is None:  # long meetings: the same reference, on exact integer microseconds
                expected = fast_reference(triples)
            speech, overlap = float(expected["speech"]), float(expected["overlap"])
            assert features.overlap_ratio_of_speech == pytest.approx(overlap / speech, abs=1e-6)
            end = float(max(b for _, _, b in triples))
            assert features.overlap_ratio == pytest.approx(overlap / end, abs=1e-6), path
            gaps = expected["gaps"]
            assert features.num_speaker_switches == len(gaps), path  # type: ignore[arg-type]
            if gaps:
                q25 = float(np.percentile([float(g) for g in gaps], 25))  # type: ignore[union-attr]
                assert features.speaker_switch_q25 == pytest.approx(q25, abs=1e-6), path
            checked += 1
    assert checked >= 170


def fast_reference(triples: list[Triple]) -> dict[str, object]:
    """The reference of :func:`reference_features`, vectorised over elementary intervals."""
    points = np.array(sorted({t for _, a, b in triples for t in (a, b)}), dtype=object)
    speakers = sorted({s for s, _, _ in triples})
    active = np.zeros((len(speakers), len(points) - 1), dtype=bool)
    index = {p: k for k, p in enumerate(points)}
    for s, a, b in triples:
        active[speakers.index(s), index[a] : index[b]] = True
    count = active.sum(axis=0)
    lengths = points[1:] - points[:-1]
    speech = sum(lengths[count >= 1], Fraction(0))
    overlap = sum(lengths[count >= 2], Fraction(0))
    turns = []
    for row, speaker in enumerate(speakers):
        on = np.flatnonzero(active[row])
        runs = np.split(on, np.flatnonzero(np.diff(on) > 1) + 1) if on.size else []
        turns += [(points[r[0]], points[r[-1] + 1], speaker) for r in runs]
    turns.sort()
    gaps, latest, previous = [], None, ""
    for start, end, speaker in turns:
        if latest is not None and start >= latest and speaker != previous:
            gaps.append(start - latest)
        if latest is None or end > latest:
            latest, previous = end, speaker
    return {"speech": speech, "overlap": overlap, "gaps": gaps}


@pytest.mark.parametrize("seed", range(40))
def test_max_concurrency_in_one_sweep_equals_the_level_by_level_count(seed: int):
    """The single sweep gives what asking "are k speakers ever active together?" for each k gives."""
    import random

    from msbench.timeline import SpeakerTimeline, at_least

    rng = random.Random(seed)
    segments = [
        (f"s{rng.randrange(6)}", (a := rng.randrange(0, 40) / 4), a + rng.randrange(0, 12) / 4)
        for _ in range(rng.randrange(0, 15))
    ]
    timeline = SpeakerTimeline.from_segments(segments)
    levels = 0
    while at_least(timeline.turns_by_speaker, levels + 1):
        levels += 1
    assert timeline.max_concurrency() == levels
