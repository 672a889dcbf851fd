"""Text-only readers written apart from msbench's (:mod:`msbench.probes.textonly`).

Each gives every option of an item a score from the question, the options and
the clip's transcript without speakers (utterances.csv's words in time order),
and picks the highest; its *expected accuracy* on an item is ``1 / k`` when
the answer is among the ``k`` options tied highest, else 0, which is the
accuracy over all option orders with ties broken at random. The readers are
the shortcuts msbench's suite stands for, coded differently: the middle number
or the longest option, the smallest number or the shortest option (the filter
must not push answers to the short side), the line right after the quote,
the earliest in the transcript, the most words shared with the quote, the
longest shared prefix with the quote (a restart); and, seeing the options'
times and a transcript with times (:class:`TimedLine`), the longest and the
shortest span, the count nearest the lines holding the asked word, the time
closest to a line's edge, the time or span under the most and the fewest
lines at once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

Reader = Callable[[str, Sequence[str], Sequence[str]], list[float]]


def tokens(text: str) -> list[str]:
    return re.sub(r"[^\w']+", " ", text.lower().replace("_", "")).split()


def quote_of(question: str) -> str:
    return question.split('"')[1].removesuffix(" ...") if question.count('"') >= 2 else ""


def _times(option: str) -> list[float]:
    return [60 * int(m) + float(s) for m, s in re.findall(r"(\d+):(\d+(?:\.\d+)?)", option)]


def _where(option: str, transcript: Sequence[str]) -> int:
    """The first transcript line holding most of the option's words (len(transcript) if none)."""
    want = set(tokens(option.removesuffix(" ...")))
    for k, line in enumerate(transcript):
        if want and len(want & set(tokens(line))) >= 0.8 * len(want):
            return k
    return len(transcript)


def earliest(question: str, options: Sequence[str], transcript: Sequence[str]) -> list[float]:
    if all(_times(o) for o in options):
        return [-_times(o)[0] for o in options]
    return [-float(_where(o, transcript)) for o in options]


def after_the_quote(
    question: str, options: Sequence[str], transcript: Sequence[str]
) -> list[float]:
    quoted = _where(quote_of(question), transcript) if quote_of(question) else len(transcript)
    return [1.0 if 0 < _where(o, transcript) - quoted <= 2 else 0.0 for o in options]


def _jaccard(a: str, b: str) -> float:
    x, y = set(tokens(a)), set(tokens(b))
    return len(x & y) / len(x | y) if x | y else 0.0


def most_like_the_quote(question: str, options: Sequence[str], _: Sequence[str]) -> list[float]:
    return [_jaccard(o, quote_of(question)) for o in options]


def shared_prefix(question: str, options: Sequence[str], _: Sequence[str]) -> list[float]:
    head = tokens(quote_of(question))
    scores = []
    for option in options:
        count = 0
        for a, b in zip(tokens(option), head, strict=False):
            if a != b:
                break
            count += 1
        scores.append(float(count))
    return scores


def _numbers(options: Sequence[str]) -> list[float] | None:
    try:
        return [float(o) for o in options]
    except ValueError:
        return None


def middle_or_longest(question: str, options: Sequence[str], _: Sequence[str]) -> list[float]:
    values = _numbers(options)
    if values is not None:
        centre = sorted(values)[len(values) // 2]
        return [-abs(v - centre) for v in values]
    return [float(len(o)) for o in options]


def smallest_or_shortest(question: str, options: Sequence[str], _: Sequence[str]) -> list[float]:
    values = _numbers(options)
    return [-v for v in values] if values is not None else [-float(len(o)) for o in options]


class TimedLine(str):
    """A transcript line that also knows its clip-relative start and end (s)."""

    start: float
    end: float

    def __new__(cls, words: str, start: float, end: float) -> TimedLine:
        line = super().__new__(cls, words)
        line.start, line.end = start, end
        return line


def _spans(options: Sequence[str]) -> list[list[float]]:
    return [_times(o) for o in options]


def longest_time(question: str, options: Sequence[str], _: Sequence[str]) -> list[float]:
    spans = _spans(options)
    return [t[1] - t[0] for t in spans] if all(len(t) == 2 for t in spans) else [0.0] * len(options)


def shortest_time(question: str, options: Sequence[str], _: Sequence[str]) -> list[float]:
    return [-v for v in longest_time(question, options, _)]


def lines_with_word(
    question: str, options: Sequence[str], transcript: Sequence[str]
) -> list[float]:
    values = _numbers(options)
    word = quote_of(question).lower()
    if values is None or not word:
        return [0.0] * len(options)
    count = sum(word in tokens(line) for line in transcript)
    return [-abs(v - count) for v in values]


def _edges(transcript: Sequence[str]) -> list[float]:
    return [t for x in transcript if isinstance(x, TimedLine) for t in (x.start, x.end)]


def closest_to_an_edge(
    question: str, options: Sequence[str], transcript: Sequence[str]
) -> list[float]:
    points, edges = _spans(options), _edges(transcript)
    if not edges or not all(len(p) == 1 for p in points):
        return [0.0] * len(options)
    return [-min(abs(p[0] - e) for e in edges) for p in points]


def _lines_at(point: float, transcript: Sequence[str]) -> int:
    return sum(1 for x in transcript if isinstance(x, TimedLine) and x.start <= point < x.end)


def most_covered(question: str, options: Sequence[str], transcript: Sequence[str]) -> list[float]:
    """Points (and span middles) under the most transcript lines at once."""
    points = _spans(options)
    if not _edges(transcript) or not all(points):
        return [0.0] * len(options)
    return [float(_lines_at(sum(p) / len(p), transcript)) for p in points]


def least_covered(question: str, options: Sequence[str], transcript: Sequence[str]) -> list[float]:
    return [-v for v in most_covered(question, options, transcript)]


READERS: dict[str, Reader] = {
    "middle_or_longest": middle_or_longest,
    "smallest_or_shortest": smallest_or_shortest,
    "after_the_quote": after_the_quote,
    "earliest": earliest,
    "most_like_the_quote": most_like_the_quote,
    "shared_prefix": shared_prefix,
    "longest_time": longest_time,
    "shortest_time": shortest_time,
    "lines_with_word": lines_with_word,
    "closest_to_an_edge": closest_to_an_edge,
    "most_covered": most_covered,
    "least_covered": least_covered,
}


def expected_accuracy(reader: Reader, item: dict[str, Any], transcript: Sequence[str]) -> float:
    scores = reader(item["question"], item["options"], transcript)
    best = max(scores)
    tied = [k for k, s in enumerate(scores) if s == best]
    return 1 / len(tied) if item["answer_idx"] in tied else 0.0


def accuracy_by_family(
    items: Sequence[dict[str, Any]], utterances: Sequence[dict[str, Any]]
) -> dict[str, dict[str, float]]:
    """Per family: ``chance`` (mean 1 / options), ``items``, and each reader's mean."""
    by_recording: dict[str, list[dict[str, Any]]] = {}
    for u in utterances:
        if (u.get("words") or "").strip():
            by_recording.setdefault(str(u["recording_id"]), []).append(u)
    sums: dict[str, dict[str, float]] = {}
    for item in items:
        lines = sorted(
            (u for u in by_recording.get(item["recording_id"], [])
             if u["start_time"] >= item["clip_start"] and u["end_time"] <= item["clip_end"]),
            key=lambda u: (u["start_time"], u["end_time"]),
        )  # fmt: skip
        transcript = [
            TimedLine(str(u["words"]), u["start_time"] - item["clip_start"],
                      u["end_time"] - item["clip_start"])
            for u in lines
        ]  # fmt: skip
        row = sums.setdefault(item["subtaxonomy"], {"items": 0.0, "chance": 0.0})
        row["items"] += 1
        row["chance"] += 1 / len(item["options"])
        for name, reader in READERS.items():
            row[name] = row.get(name, 0.0) + expected_accuracy(reader, item, transcript)
    return {
        family: {k: (v if k == "items" else v / row["items"]) for k, v in row.items()}
        for family, row in sums.items()
    }
