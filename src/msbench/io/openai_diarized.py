"""OpenAI's ``gpt-4o-transcribe-diarize`` with ``response_format="diarized_json"``: ``{"text",
"segments": [{"type": "transcript.text.segment", "id", "start", "end", "speaker", "text"}],
"usage"}`` (the openai SDK's ``TranscriptionDiarized``); each segment one turn. Told apart
from WhisperX's ``segments`` by their ``type``.
"""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, seconds
from msbench.records import Segment

LOOKS_FOR = (
    "an object with 'segments' of type 'transcript.text.segment' {start, end, speaker, text}"
)
SEGMENT_TYPE = "transcript.text.segment"


def looks(data: Any) -> bool:
    segments = data.get("segments") if isinstance(data, dict) else None
    first = segments[0] if isinstance(segments, list) and segments else None
    return isinstance(first, dict) and first.get("type") == SEGMENT_TYPE


def read(data: Any, session: str, origin: str) -> list[Segment]:
    return [
        Segment(
            session,
            seconds(s["start"], f"segment {s.get('id', k)} start"),
            seconds(s["end"], f"segment {s.get('id', k)} end"),
            label(s.get("speaker")),
            str(s.get("text") or "").strip(),
            f"{origin}:segment {s.get('id', k)}",
        )
        for k, s in enumerate(data["segments"], start=1)
    ]
