"""A separate transcript's speaker labels, matched to the annotation's.

An RTTM names its speakers one way and the STM or SegLST transcript beside it
may name them another (pyannote's sample: ``speaker90`` in the RTTM,
``Diane`` in the STM). Every transcript label the annotation also uses is
kept. The others are matched one to one to the annotation labels no
transcript label already uses, by the most shared speech (µs where both speak,
exact; scipy's Hungarian solver, ties to the first labels in sorted order),
and renamed to them, so that ``utterances.csv``, the overlap exposure, the
review page and the probes name one speaker one way. Each rename is a note
with the seconds that decided it; a label that shares no speech with any free
annotation speaker keeps its name, with a note that its utterances meet
nobody's timeline.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from msbench.records import Segment
from msbench.timeline import SpeakerTimeline, covered, to_seconds


def _shared_micros(
    annotation: SpeakerTimeline, transcript: SpeakerTimeline, ours: str, theirs: str
) -> int:
    turns = list(annotation.turns_by_speaker[theirs])
    return sum(covered(span, turns) for span in transcript.turns_by_speaker[ours])


def match_transcript_speakers(
    segments: Sequence[Segment], transcript: Sequence[Segment]
) -> tuple[dict[str, str], list[str]]:
    """``{transcript label: annotation label}`` for the labels to rename, and the notes.

    >>> rttm = [Segment("s", 0.0, 2.0, "spk1"), Segment("s", 2.0, 4.0, "spk2")]
    >>> stm = [Segment("s", 0.1, 1.9, "Ann", "hi"), Segment("s", 2.2, 3.8, "Bob", "yes")]
    >>> renames, notes = match_transcript_speakers(rttm, stm)
    >>> renames
    {'Ann': 'spk1', 'Bob': 'spk2'}
    >>> notes[0]
    "transcript speaker 'Ann' is annotation speaker 'spk1' (1.8 s of speech shared)"
    """
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    ours = SpeakerTimeline.of(s for s in transcript if s.end_time > s.start_time)
    theirs = SpeakerTimeline.of(s for s in segments if s.end_time > s.start_time)
    labels = sorted({s.speaker for s in transcript})
    unknown = [x for x in labels if x not in theirs.turns_by_speaker]
    free = [x for x in theirs.speakers if x not in set(labels)]
    if not unknown:
        return {}, []
    shared = np.array(
        [
            [_shared_micros(theirs, ours, x, y) if x in ours.turns_by_speaker else 0 for y in free]
            for x in unknown
        ],
        dtype=np.int64,
    ).reshape(len(unknown), len(free))
    rows, cols = linear_sum_assignment(shared, maximize=True) if free else ([], [])
    renames, notes = {}, []
    for row, col in zip(rows, cols, strict=True):
        if shared[row, col] > 0:
            renames[unknown[row]] = free[col]
            notes.append(
                f"transcript speaker {unknown[row]!r} is annotation speaker {free[col]!r} "
                f"({to_seconds(int(shared[row, col]))} s of speech shared)"
            )
    for label in unknown:
        if label not in renames:
            notes.append(
                f"transcript speaker {label!r} shares no speech with an unmatched annotation "
                "speaker: its words are scored, its overlap exposure counts every annotation "
                "speaker as another"
            )
    return renames, notes


def renamed(transcript: Sequence[Segment], renames: dict[str, str]) -> tuple[Segment, ...]:
    """The transcript with its labels renamed (``renames`` from :func:`match_transcript_speakers`)."""
    return tuple(replace(s, speaker=renames.get(s.speaker, s.speaker)) for s in transcript)
