"""Deepgram's response JSON (``diarize=true``): ``results.utterances`` when requested, else the
first channel's words ``{"word", "punctuated_word", "start", "end", "speaker"}`` (consecutive
words of one speaker are one turn)."""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, results_of, seconds, turns_of_words
from msbench.records import Segment

LOOKS_FOR = "an object 'results' with 'channels' (and 'utterances')"


def looks(data: Any) -> bool:
    return results_of(data, dict) and "channels" in data["results"]


def read(data: Any, session: str, origin: str) -> list[Segment]:
    results = data["results"]
    if results.get("utterances"):
        return [
            Segment(
                session,
                seconds(u["start"]),
                seconds(u["end"]),
                label(u.get("speaker")),
                str(u.get("transcript") or ""),
                f"{origin}:utterance {k}",
            )
            for k, u in enumerate(results["utterances"], start=1)
        ]
    words = results["channels"][0]["alternatives"][0]["words"]
    return turns_of_words(
        (
            (
                seconds(w["start"]),
                seconds(w["end"]),
                label(w.get("speaker")),
                str(w.get("punctuated_word") or w["word"]),
            )
            for w in words
        ),
        session,
        origin,
    )
