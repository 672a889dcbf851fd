"""Per-recording interaction rows and per-utterance exposure rows for one source."""

from __future__ import annotations

from typing import Any

from msbench.features.interaction import (
    changes_across_gaps,
    interaction_features,
    overlap_exposures,
)
from msbench.records import IngestedRecording, speaker_id


def interaction_row(item: IngestedRecording) -> dict[str, Any]:
    recording = item.recording
    features = interaction_features(item.segments, recording.duration_seconds, item.spans)
    notes = list(item.notes)
    across = changes_across_gaps(item.segments, item.spans)
    if across:
        notes.append(
            f"T: {across} speaker change(s) across a gap between UEM spans not counted "
            "(unscored time in the gap)"
        )
    return {
        "recording_id": recording.recording_id,
        "source_dataset": recording.source_dataset,
        "language": recording.language,
        "scenario": recording.scenario,
        "recording_device": recording.recording_device,
        "duration_seconds": recording.duration_seconds,
        "num_speakers": features.num_speakers,
        "overlap_ratio": features.overlap_ratio,
        "speaker_switch_q25": features.speaker_switch_q25,
        "speech_duration_seconds": features.speech_duration,
        "overlap_duration_seconds": features.overlap_duration,
        "overlap_ratio_of_speech": features.overlap_ratio_of_speech,
        "max_concurrent_speakers": features.max_concurrent_speakers,
        "num_speaker_switches": features.num_speaker_switches,
        "num_segments": sum(s.end_time > s.start_time for s in item.segments),
        "scored_spans": [list(span) for span in item.spans],
        "audio_path": recording.audio_path,
        "channel": recording.channel,
        "sample_rate": recording.sample_rate,
        "num_channels": recording.num_channels,
        "annotation_file": recording.annotation_file,
        "ingest_notes": "; ".join(notes),
    }


def utterance_rows(item: IngestedRecording) -> list[dict[str, Any]]:
    """``utterances.csv`` rows: the reference utterances with their words and ``r_ov``.

    The utterances are the transcript's when the source has one (RTTM + STM or
    SegLST), else the annotation's own segments (STM, TextGrid, CHiME,
    NOTSOFAR, SegLST and lhotse carry words; RTTM alone leaves them empty).
    """
    utterances = item.transcript or None
    return [
        {
            "recording_id": item.recording.recording_id,
            "speaker": speaker_id(
                item.recording.source_dataset, item.recording.session_id, exposure.speaker
            ),
            "start_time": exposure.start_time,
            "end_time": exposure.end_time,
            "words": exposure.words,
            "overlap_exposure": exposure.overlap_exposure,
        }
        for exposure in overlap_exposures(item.segments, utterances)
    ]
