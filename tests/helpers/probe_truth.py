"""Which options of a generated item are true, re-derived from utterances.csv and the RTTM.

Written apart from msbench's generator (:mod:`msbench.probes.truth`): each
question is read literally against the clip's reference lines (utterances.csv)
and the speakers' activity (the source's RTTM, joined with the lines' spans),
with the 0.25 s tolerance the README states. A line *matches* a shown text when
the shown words (lower case, AMI's letter marks without their underscore) are a
subsequence of the line's, in order, from its first word: the shown text drops
only cut-off words.
"""

from __future__ import annotations

import re
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

TOLERANCE = 0.25


#: Scripts written without spaces (Han, kana, Hangul, Thai): a word count is a character count,
#: as msbench's tokenizer counts them (its documented convention, written out again here).
UNSPACED = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af\u0e00-\u0e7f]")


def words(text: str) -> list[str]:
    spaced = re.sub(r"[^\w']+", " ", text.lower().replace("_", ""))
    return UNSPACED.sub(lambda m: f" {m.group(0)} ", spaced).split()


def says(word: str, line: str) -> bool:
    """A line holds the asked word: a whole word, or (unspaced scripts) the characters in a row."""
    if all(UNSPACED.match(c) for c in word):
        return word in "".join(words(line))
    return word in words(line)


def matches(shown: str, line: str) -> bool:
    want, have = words(shown.removesuffix(" ...").strip('"')), words(line)
    if not want or not have or want[0] != have[0]:
        return False
    position = 0
    for word in want:
        while position < len(have) and have[position] != word:
            position += 1
        if position == len(have):
            return False
        position += 1
    return True


def read_rttm(paths: list[Path], source: str) -> dict[str, list[tuple[float, float, str]]]:
    """recording id -> (start, end, speaker id) of every SPEAKER line, ends summed exactly."""
    activity: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            f = line.split()
            if f and f[0] == "SPEAKER":
                end = float(Decimal(f[3]) + Decimal(f[4]))
                activity[f"{source}::{f[1]}"].append(
                    (float(f[3]), end, f"{source}::{f[1]}::{f[7]}")
                )
    return activity


class ClipFacts:
    """One item's clip: its lines and every speaker's activity (RTTM and lines)."""

    def __init__(
        self, item: dict[str, Any], utterances: list[dict[str, Any]], rttm: dict[str, Any]
    ):
        start, end, rid = item["clip_start"], item["clip_end"], item["recording_id"]
        self.start = start
        self.lines = sorted(
            (u for u in utterances if u["recording_id"] == rid and (u["words"] or "").strip()
             and u["start_time"] >= start and u["end_time"] <= end),
            key=lambda u: u["start_time"],
        )  # fmt: skip
        spans: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for a, b, speaker in rttm.get(rid, []):
            spans[speaker].append((a, b))
        for u in utterances:
            if u["recording_id"] == rid:
                spans[u["speaker"]].append((u["start_time"], u["end_time"]))
        self.activity = dict(spans)

    def talks(self, speaker: str, a: float, b: float) -> float:
        """Seconds the speaker is active in [a, b) (their spans joined first)."""
        joined: list[list[float]] = []
        for x, y in sorted(self.activity.get(speaker, [])):
            if joined and x <= joined[-1][1]:
                joined[-1][1] = max(joined[-1][1], y)
            else:
                joined.append([x, y])
        return sum(max(0.0, min(b, y) - max(a, x)) for x, y in joined)

    def active(self, a: float, b: float) -> list[str]:
        return [s for s in self.activity if self.talks(s, a, b) > 0]

    def said(self, speaker: str, shown: str) -> list[dict[str, Any]]:
        return [u for u in self.lines if u["speaker"] == speaker and matches(shown, u["words"])]

    def times(self, option: str) -> list[float]:
        return [
            self.start + 60 * int(m) + float(s) for m, s in re.findall(r"(\d+):(\d+\.\d)", option)
        ]


def true_options(item: dict[str, Any], facts: ClipFacts) -> list[int]:
    family, task, options = item["subtaxonomy"], item["subtask"], item["options"]
    quote = item["question"].split('"')[1] if '"' in item["question"] else ""
    if family == "VC" or task == "word_count":
        count = _count(item, facts, quote)
        return [k for k, o in enumerate(options) if int(o) == count]
    if family == "VL":
        speaker = item["reference_voice"]["speaker"]
        talk = [facts.talks(speaker, *facts.times(o)) for o in options]
        if task == "when_silent":
            return [k for k, t in enumerate(talk) if t <= TOLERANCE]
        return [k for k, t in enumerate(talk) if t > TOLERANCE]
    if family == "VCD":
        return [k for k, o in enumerate(options) if _changes(facts, facts.times(o)[0], task)]
    if family == "CVA":
        voices = [v["speaker"] for v in item["option_voices"]]
        return [k for k, s in enumerate(voices) if facts.said(s, quote)]
    speaker = _speaker_of(item, facts, quote)
    lines = [facts.said(speaker, o) for o in options]
    if family == "IR":
        lines = [[u for u in found if not matches(quote, u["words"])] for found in lines]
    if task == "first":
        starts = [min(u["start_time"] for u in found) if found else None for found in lines]
        first = min(s for s in starts if s is not None)
        return [k for k, s in enumerate(starts) if s == first]
    if task == "next":
        quoted_end = min(u["end_time"] for u in facts.said(speaker, quote))
        following = min((u for u in facts.lines if u["speaker"] == speaker
                         and u["start_time"] >= quoted_end), key=lambda u: u["start_time"])  # fmt: skip
        return [k for k, found in enumerate(lines) if following in found]
    return [k for k, found in enumerate(lines) if found]


def _count(item: dict[str, Any], facts: ClipFacts, quote: str) -> int:
    if item["subtaxonomy"] == "VC":
        seconds: dict[str, float] = defaultdict(float)
        said: dict[str, int] = defaultdict(int)
        for u in facts.lines:
            said[u["speaker"]] += len(words(u["words"]))
        for s in said:
            seconds[s] = facts.talks(s, facts.start, item["clip_end"])
        return sum(1 for s in said if said[s] >= 2 and seconds[s] >= 1.0)
    word = item["question"].split('"')[1].lower()
    return len({u["speaker"] for u in facts.lines if says(word, u["words"])})


def _changes(facts: ClipFacts, moment: float, task: str) -> bool:
    window = (moment - TOLERANCE, moment + TOLERANCE)
    active = facts.active(*window)
    if task == "switch":
        return len(active) >= 2
    step = 0.01  # two speakers at one instant of the window, on a 10 ms grid
    instants = [window[0] + step * (k + 0.5) for k in range(int(2 * TOLERANCE / step))]
    return any(sum(facts.talks(s, t, t + 1e-6) > 0 for s in active) >= 2 for t in instants)


def _speaker_of(item: dict[str, Any], facts: ClipFacts, quote: str) -> str:
    if item["subtaxonomy"] == "VCA":
        return item["reference_voice"]["speaker"]
    if item["subtaxonomy"] == "QR":
        totals = {
            s: facts.talks(s, facts.start, item["clip_end"])
            for s in {u["speaker"] for u in facts.lines}
        }
        ranked = sorted(totals, key=lambda s: -totals[s])
        return ranked[int(item["subtask"][-1]) - 1]
    (speaker,) = {u["speaker"] for u in facts.lines if matches(quote, u["words"])}
    return speaker
