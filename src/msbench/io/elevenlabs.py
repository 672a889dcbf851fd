"""ElevenLabs Scribe's speech-to-text response (``diarize: true``): ``words`` of ``{"text",
"start", "end", "type", "speaker_id"}``, where ``type`` is ``word``, ``spacing`` or
``audio_event`` (``(laughter)``); the words, in order, consecutive words of one speaker one turn.
Spacing and audio events are no words (an audio event is not speech to transcribe).
"""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, turns_of_words, word_entry
from msbench.records import Segment

LOOKS_FOR = "an object with a list 'words' of {text, start, end, type, speaker_id}"


def looks(data: Any) -> bool:
    words = data.get("words") if isinstance(data, dict) else None
    first = words[0] if isinstance(words, list) and words else None
    return isinstance(first, dict) and "type" in first and "text" in first


def read(data: Any, session: str, origin: str) -> list[Segment]:
    words = [
        word_entry(w, ("start", "end", "text"), label(w.get("speaker_id")), f"words[{k}]")
        for k, w in enumerate(data["words"])
        if w["type"] == "word"
    ]  # each word checked before the turns are joined
    return turns_of_words(words, session, origin)
