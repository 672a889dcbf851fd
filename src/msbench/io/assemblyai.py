"""AssemblyAI's transcript JSON: with ``speaker_labels: true``, ``utterances`` of ``{"speaker",
"start", "end", "text"}``; without, ``"utterances": null`` and ``words`` of ``{"text", "start",
"end", "confidence", "speaker": null}`` (as real responses show). Times are integer milliseconds
(divided exactly; float seconds are an error, never truncated). Words without speakers are read
as they are: the structural check then names the first entry without one (no speaker is made
up).
"""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, millis, turns_of_words, word_text
from msbench.records import Segment

LOOKS_FOR = "an object with 'utterances' of {speaker, start, end, text} (ms), or null and 'words'"


def looks(data: Any) -> bool:
    if not isinstance(data, dict) or "utterances" not in data:
        return False
    return isinstance(data["utterances"], list) or isinstance(data.get("words"), list)


def read(data: Any, session: str, origin: str) -> list[Segment]:
    if isinstance(data["utterances"], list):
        return [
            Segment(
                session,
                millis(u["start"], f"utterance {k} start"),
                millis(u["end"], f"utterance {k} end"),
                label(u["speaker"]),
                str(u.get("text") or ""),
                f"{origin}:utterance {k}",
            )
            for k, u in enumerate(data["utterances"], start=1)
        ]
    words = [
        (
            millis(w["start"], f"word {k} start"),
            millis(w["end"], f"word {k} end"),
            label(w.get("speaker")),
            word_text(w["text"], f"word {k}"),
        )
        for k, w in enumerate(data["words"], start=1)
    ]
    return turns_of_words(words, session, origin)
