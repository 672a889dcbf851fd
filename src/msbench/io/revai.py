"""Rev.ai's transcript JSON (``Accept: application/vnd.rev.transcript.v1.0+json``):
``monologues`` of ``{"speaker", "elements": [{"type": "text", "value", "ts", "end_ts"},
{"type": "punct", "value"}]}``; each monologue one segment, from its first text element's ``ts``
to its last one's ``end_ts``, its text elements' values joined (punctuation to the word before).
"""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, word_entry
from msbench.records import Segment

LOOKS_FOR = "an object with a list 'monologues' of {speaker, elements}"


def looks(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("monologues"), list)


def read(data: Any, session: str, origin: str) -> list[Segment]:
    segments = []
    for k, monologue in enumerate(data["monologues"], start=1):
        words: list[str] = []
        times: list[tuple[float, float]] = []
        for e, element in enumerate(monologue["elements"], start=1):
            if element["type"] == "text":  # each element checked before the monologue is joined
                where = f"monologue {k} element {e}"
                start, end, _, word = word_entry(element, ("ts", "end_ts", "value"), "", where)
                words.append(word)
                times.append((start, end))
            elif element["type"] == "punct" and words and (element.get("value") or "").strip():
                words[-1] += element["value"].strip()
        if times:
            segments.append(
                Segment(
                    session,
                    times[0][0],
                    times[-1][1],
                    label(monologue.get("speaker")),
                    " ".join(words),
                    f"{origin}:monologue {k}",
                )
            )
    return segments
