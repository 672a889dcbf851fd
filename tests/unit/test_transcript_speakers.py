"""A transcript that names its speakers unlike the annotation beside it (RTTM + STM)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msbench.features.feature_rows import utterance_rows
from msbench.ingest.sheet import find_source, read_dataset_sheet
from msbench.ingest.source import ingest_source
from msbench.ingest.transcript_speakers import match_transcript_speakers
from msbench.records import Segment
from tests.helpers.probes import demo_sheet


def seg(speaker: str, start: float, end: float, words: str | None = None) -> Segment:
    return Segment("s", start, end, speaker, words)


def test_known_labels_stay_unknown_ones_take_the_free_speaker_with_most_shared_speech():
    rttm = [seg("A", 0, 3), seg("B", 3, 5), seg("C", 5, 9), seg("D", 9, 9.5)]
    stm = [
        seg("A", 0.2, 2.8, "kept"),
        seg("x", 3.1, 4.9, "mostly B"),
        seg("x", 5.0, 5.2, "a little C"),
        seg("y", 5.5, 8.5, "C"),
        seg("z", 20, 21, "nobody"),
    ]
    renames, notes = match_transcript_speakers(rttm, stm)
    # x shares 1.8 s with B and 0.2 s with C; y shares 3 s with C: one to one, most in total
    assert renames == {"x": "B", "y": "C"}
    assert notes == [
        "transcript speaker 'x' is annotation speaker 'B' (1.8 s of speech shared)",
        "transcript speaker 'y' is annotation speaker 'C' (3.0 s of speech shared)",
        "transcript speaker 'z' shares no speech with an unmatched annotation speaker: its "
        "words are scored, its overlap exposure counts every annotation speaker as another",
    ]


def test_a_transcript_in_the_annotations_labels_is_left_alone():
    rttm = [seg("A", 0, 3), seg("B", 3, 5)]
    assert match_transcript_speakers(rttm, [seg("B", 0, 3, "w")]) == ({}, [])


def test_pyannote_sample_names_its_stm_speakers_like_its_rttm_and_says_so(tmp_path: Path):
    """The demo's two-speaker source (pyannote's sample: RTTM speaker90/91, STM Diane/Sheila):
    the exposure of every utterance is then against the other speaker only, checked on a
    1 ms frame grid."""
    spec = find_source(read_dataset_sheet(demo_sheet(tmp_path)), "two_speaker")
    (item,) = ingest_source(spec).recordings
    assert [n for n in item.notes if n.startswith("transcript speaker")] == [
        "transcript speaker 'Diane' is annotation speaker 'speaker90' (10.061 s of speech shared)",
        "transcript speaker 'Sheila' is annotation speaker 'speaker91' (11.07 s of speech shared)",
    ]
    frames = int(round(item.recording.duration_seconds * 1000)) + 1
    active = {}
    for s in item.segments:
        mask = active.setdefault(s.speaker, np.zeros(frames, bool))
        mask[int(round(s.start_time * 1000)) : int(round(s.end_time * 1000))] = True
    for row in utterance_rows(item):
        label = row["speaker"].rsplit("::", 1)[1]
        low, high = int(round(row["start_time"] * 1000)), int(round(row["end_time"] * 1000))
        others = np.zeros(frames, bool)
        for speaker, mask in active.items():
            if speaker != label:
                others |= mask
        expected = others[low:high].mean() if high > low else 0.0
        assert abs(row["overlap_exposure"] - expected) < 2e-3, row
