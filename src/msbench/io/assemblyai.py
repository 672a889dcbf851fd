"""AssemblyAI's transcript JSON (``speaker_labels: true``): ``utterances`` of ``{"speaker",
"start", "end", "text"}``, times in integer milliseconds (divided exactly; float seconds are an
error, never truncated)."""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, millis
from msbench.records import Segment

LOOKS_FOR = "an object with a list 'utterances' of {speaker, start, end, text} (milliseconds)"


def looks(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("utterances"), list)


def read(data: Any, session: str, origin: str) -> list[Segment]:
    return [
        Segment(
            session,
            millis(u["start"], f"utterance {k} start"),
            millis(u["end"], f"utterance {k} end"),
            label(u["speaker"]),
            str(u.get("text") or ""),
            f"{origin}:utterance {k}",
        )  # fmt: skip
        for k, u in enumerate(data["utterances"], start=1)
    ]
