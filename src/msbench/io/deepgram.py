"""Deepgram's response JSON (``diarize=true``): ``results.utterances`` when requested, else the
first channel's words ``{"word", "punctuated_word", "start", "end", "speaker"}`` (consecutive
words of one speaker are one turn)."""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, results_of, seconds, turns_of_words, word_entry
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
                seconds(u["start"], f"utterance {k} start"),
                seconds(u["end"], f"utterance {k} end"),
                label(u.get("speaker")),
                str(u.get("transcript") or ""),
                f"{origin}:utterance {k}",
            )
            for k, u in enumerate(results["utterances"], start=1)
        ]
    words = results["channels"][0]["alternatives"][0]["words"]
    checked = [
        word_entry(
            w,
            ("start", "end", "punctuated_word" if w.get("punctuated_word") else "word"),
            label(w.get("speaker")),
            f"word {k}",
        )
        for k, w in enumerate(words, start=1)
    ]  # each word checked before the turns are joined
    return turns_of_words(checked, session, origin)
