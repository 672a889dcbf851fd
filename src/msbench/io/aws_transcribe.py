"""Amazon Transcribe's output JSON (``ShowSpeakerLabels``): each
``results.speaker_labels.segments`` turn, with the ``results.items`` pronunciations that start
inside it (punctuation joined to the word before)."""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import results_of, seconds, word_text
from msbench.records import Segment

LOOKS_FOR = "an object 'results' with 'speaker_labels' and 'items'"


def looks(data: Any) -> bool:
    return results_of(data, dict) and "speaker_labels" in data["results"]


def read(data: Any, session: str, origin: str) -> list[Segment]:
    results = data["results"]
    turns = results["speaker_labels"]["segments"]
    words: list[list[str]] = [[] for _ in turns]
    starts = [
        seconds(t["start_time"], f"speaker segment {k} start_time")
        for k, t in enumerate(turns, start=1)
    ]
    for i, item in enumerate(results.get("items", [])):
        content = word_text(item["alternatives"][0]["content"], f"items[{i}]")
        if item.get("type") == "punctuation":
            for bucket in reversed(words):
                if bucket:
                    bucket[-1] += content
                    break
            continue
        start = seconds(item["start_time"], f"items[{i}] start_time")
        k = max((i for i, s in enumerate(starts) if s <= start), default=0)
        words[k].append(content)
    return [
        Segment(
            session,
            starts[k],
            seconds(t["end_time"], f"speaker segment {k + 1} end_time"),
            str(t["speaker_label"]),
            " ".join(words[k]),
            f"{origin}:speaker segment {k + 1}",
        )
        for k, t in enumerate(turns)
    ]
