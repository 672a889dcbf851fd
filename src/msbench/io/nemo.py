"""NVIDIA NeMo's speaker-attributed transcript JSON (``OfflineDiarWithASR``, written beside its
RTTM as ``pred_rttms/<session>.json``): ``{"status", "session_id", "transcription",
"speaker_count", "words": [{"word", "start_time", "end_time", "speaker"}], "sentences":
[{"sentence", "start_time", "end_time", "speaker"}]}`` (older NeMo wrote ``speaker_label`` in
``words`` and no ``sentences``). The sentences are the turns; without them, consecutive words of
one speaker are. NeMo's RTTM and word CTM are read by the ``rttm`` and ``ctm`` formats.
"""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, seconds, turns_of_words, word_entry, word_text
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
                seconds(s["start_time"], f"sentence {k} start_time"),
                seconds(s["end_time"], f"sentence {k} end_time"),
                _speaker(s),
                word_text(s.get("sentence", ""), f"sentence {k}"),
                f"{origin}:sentence {k}",
            )
            for k, s in enumerate(data["sentences"], start=1)
        ]
    words = [
        word_entry(w, ("start_time", "end_time", "word"), _speaker(w), f"word {k}")
        for k, w in enumerate(data["words"], start=1)
    ]  # each word checked before the turns are joined
    return turns_of_words(words, session, origin)
