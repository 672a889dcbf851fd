"""NVIDIA NeMo's speaker-attributed transcript JSON (``OfflineDiarWithASR``, written beside its
RTTM as ``pred_rttms/<session>.json``): ``{"status", "session_id", "transcription",
"speaker_count", "words": [{"word", "start_time", "end_time", "speaker"}], "sentences":
[{"sentence", "start_time", "end_time", "speaker"}]}`` (older NeMo wrote ``speaker_label`` in
``words`` and no ``sentences``). The sentences are the turns; without them, consecutive words of
one speaker are. NeMo's RTTM and word CTM are read by the ``rttm`` and ``ctm`` formats.
"""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, seconds, turns_of_words
from msbench.records import Segment

LOOKS_FOR = "an object with 'speaker_count' and 'words' of {word, start_time, end_time, speaker}"


def looks(data: Any) -> bool:
    return (
        isinstance(data, dict) and "speaker_count" in data and isinstance(data.get("words"), list)
    )


def _speaker(entry: dict[str, Any]) -> str:
    return label(entry.get("speaker", entry.get("speaker_label")))


def read(data: Any, session: str, origin: str) -> list[Segment]:
    if data.get("sentences"):
        return [
            Segment(
                session,
                seconds(s["start_time"]),
                seconds(s["end_time"]),
                _speaker(s),
                str(s.get("sentence") or ""),
                f"{origin}:sentence {k}",
            )
            for k, s in enumerate(data["sentences"], start=1)
        ]
    words = (
        (seconds(w["start_time"]), seconds(w["end_time"]), _speaker(w), str(w["word"]))
        for w in data["words"]
    )
    return turns_of_words(words, session, origin)
