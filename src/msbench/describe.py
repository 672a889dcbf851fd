"""``msbench describe``: interaction features straight from one annotation file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msbench.adapters import read_annotation_file, read_uem_durations
from msbench.features.interaction import interaction_features


def describe_file(
    path: str | Path, fmt: str | None = None, uem: str | None = None, encoding: str | None = None
) -> list[dict[str, Any]]:
    """One dict per session: duration, the interaction features, and any segment problems."""
    durations = read_uem_durations(uem, encoding) if uem else {}
    rows = []
    for session in read_annotation_file(path, fmt, encoding):
        last_end = max((s.end_time for s in session.segments), default=0.0)
        duration = durations.get(session.session_id, session.duration or last_end)
        features = interaction_features(session.segments)
        rows.append(
            {
                "session_id": session.session_id,
                "duration_seconds": round(duration, 6),
                "num_speakers": features.num_speakers,
                "overlap_ratio": round(features.overlap_ratio, 6),
                "speaker_switch_q25": None
                if features.speaker_switch_q25 is None
                else round(features.speaker_switch_q25, 6),
                "speech_duration_seconds": round(features.speech_duration, 6),
                "overlap_duration_seconds": round(features.overlap_duration, 6),
                "max_concurrent_speakers": features.max_concurrent_speakers,
                "num_speaker_switches": features.num_speaker_switches,
                "num_segments": len(session.segments),
                "problems": list(session.problems),
            }
        )
    return rows
