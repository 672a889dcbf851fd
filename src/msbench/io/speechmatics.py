"""Speechmatics' json-v2 transcript (``diarization: speaker``): ``results`` of ``{"type":
"word", "start_time", "end_time", "alternatives": [{"content", "speaker"}]}``; punctuation joins
the word before; consecutive words of one speaker are one turn."""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import Word, label, results_of, turns_of_words, word_entry
from msbench.records import Segment

LOOKS_FOR = "an object with a list 'results' of {type, start_time, end_time, alternatives}"


def looks(data: Any) -> bool:
    return (
        results_of(data, list)
        and isinstance(data["results"][0], dict)
        and "type" in data["results"][0]
    )


def read(data: Any, session: str, origin: str) -> list[Segment]:
    words: list[Word] = []
    for k, r in enumerate(data["results"]):
        best = r["alternatives"][0]
        if r.get("type") == "punctuation" and words:
            s, e, who, w = words[-1]
            words[-1] = (s, e, who, w + best["content"])
        elif r.get("type") == "word":
            words.append(
                word_entry(
                    {**r, "content": best.get("content")},
                    ("start_time", "end_time", "content"),
                    label(best.get("speaker")),
                    f"results[{k}]",
                )
            )
    return turns_of_words(words, session, origin)
