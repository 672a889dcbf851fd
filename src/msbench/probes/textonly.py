"""Text-only baselines: readers that hear nothing, run in every option order.

Each sees the question, the options and (some) the clip's transcript without
speakers, lines in time order:

* ``options_only``: the middle value of numeric options, else the longest option;
* ``transcript``: the option most like the lines right after the quoted line;
* ``transcript_order``: the option that comes earliest in the transcript (for
  times, the earliest time), as "which did they say first" tempts;
* ``lexical_overlap``: the option sharing the most words with the quoted line;
* ``prefix_restart``: the option whose first words agree longest with the
  quoted line's (a restart of the quote gives itself away);
* the opposites, readers that "avoid the obvious": ``shortest_option``,
  ``transcript_latest`` (latest in the transcript, or the latest time) and
  ``lexical_distance`` (the option sharing the fewest words with the quote).

A baseline's *share* on an item is how often it picks the answer over all
option orders (120 for five options); a position-dependent tie is chance. With
``probes.text_only: drop`` the generator keeps, per family, every baseline's
mean share at most ``probes.text_only_margin`` (5 points) above chance at
every step (:class:`TextOnlyBudget`): a solvable item enters only where the
family has room, so baselines sit near chance rather than far below it (an
"avoid the obvious option" reader would gain otherwise).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from msbench.probes.text import normalise

Baseline = Callable[[Sequence[str], str, Sequence[str]], int]


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def options_only(options: Sequence[str], question: str, transcript: Sequence[str]) -> int:
    """The middle number, else the longest option.

    >>> options_only(["3", "1", "2"], "", []), options_only(["a b", "a b c", "d"], "", [])
    (2, 1)
    """
    parsed = [_number(o) for o in options]
    numbers = [n for n in parsed if n is not None]
    if len(numbers) == len(parsed):
        return numbers.index(sorted(numbers)[len(numbers) // 2])
    lengths = [len(o) for o in options]
    return lengths.index(max(lengths))


def _overlap(a: str, b: str) -> float:
    x, y = set(normalise(a).split()), set(normalise(b).split())
    return len(x & y) / len(x | y) if x | y else 0.0


def _quoted(question: str) -> str | None:
    return question.split('"')[1].removesuffix(" ...") if question.count('"') >= 2 else None


def transcript(options: Sequence[str], question: str, lines: Sequence[str]) -> int:
    """The option most like the lines after the quoted line (the first option without a quote)."""
    quoted = _quoted(question)
    if quoted is None or not lines:
        return 0
    at = max(range(len(lines)), key=lambda i: _overlap(lines[i], quoted))
    nearby = lines[at + 1 : at + 3]
    scores = [max((_overlap(o, x) for x in nearby), default=0.0) for o in options]
    return scores.index(max(scores))


_TIME = re.compile(r"(\d+):(\d+(?:\.\d+)?)")


def transcript_order(options: Sequence[str], question: str, lines: Sequence[str]) -> int:
    """The option found earliest in the transcript; for shown times, the earliest time.

    >>> transcript_order(["c d", "a b"], "", ["a b x", "c d y"]), transcript_order(["at 00:09.0", "at 00:03.0"], "", [])
    (1, 1)
    """
    times = [_TIME.findall(o) for o in options]
    if all(times):
        first = [60 * int(t[0][0]) + float(t[0][1]) for t in times]
        return first.index(min(first))

    def position(option: str) -> int:
        scores = [_overlap(option, line) for line in lines]
        best = max(scores, default=0.0)
        return scores.index(best) if best > 0 else len(lines)

    found = [position(o) for o in options]
    return found.index(min(found))


def lexical_overlap(options: Sequence[str], question: str, lines: Sequence[str]) -> int:
    """The option sharing the most words with the quoted line (the first without a quote)."""
    quoted = _quoted(question)
    if quoted is None:
        return 0
    scores = [_overlap(o, quoted) for o in options]
    return scores.index(max(scores))


def prefix_restart(options: Sequence[str], question: str, lines: Sequence[str]) -> int:
    """The option whose first words agree longest with the quoted line's.

    >>> prefix_restart(["we go now", "is there much more"], 'said "is there much more in it"', [])
    1
    """
    quoted = _quoted(question)
    if quoted is None:
        return 0
    head = normalise(quoted).split()

    def agree(option: str) -> int:
        count = 0
        for a, b in zip(normalise(option).split(), head, strict=False):
            if a != b:
                break
            count += 1
        return count

    scores = [agree(o) for o in options]
    return scores.index(max(scores))


def shortest_option(options: Sequence[str], question: str, transcript: Sequence[str]) -> int:
    """The shortest option (numbers: the smallest).

    >>> shortest_option(["a b", "a b c", "d"], "", []), shortest_option(["3", "10"], "", [])
    (2, 0)
    """
    parsed = [_number(o) for o in options]
    if all(n is not None for n in parsed):
        return parsed.index(min(parsed))  # type: ignore[type-var]
    lengths = [len(o) for o in options]
    return lengths.index(min(lengths))


def transcript_latest(options: Sequence[str], question: str, lines: Sequence[str]) -> int:
    """The option found latest in the transcript; for shown times, the latest time.

    >>> transcript_latest(["c d", "a b"], "", ["a b x", "c d y"])
    0
    """
    times = [_TIME.findall(o) for o in options]
    if all(times):
        first = [60 * int(t[0][0]) + float(t[0][1]) for t in times]
        return first.index(max(first))

    def position(option: str) -> int:
        scores = [_overlap(option, line) for line in lines]
        best = max(scores, default=0.0)
        return scores.index(best) if best > 0 else -1

    found = [position(o) for o in options]
    return found.index(max(found))


def lexical_distance(options: Sequence[str], question: str, lines: Sequence[str]) -> int:
    """The option sharing the fewest words with the quoted line (the first without a quote)."""
    quoted = _quoted(question)
    if quoted is None:
        return 0
    scores = [_overlap(o, quoted) for o in options]
    return scores.index(min(scores))


BASELINES: dict[str, Baseline] = {
    "options_only": options_only,
    "transcript": transcript,
    "transcript_order": transcript_order,
    "lexical_overlap": lexical_overlap,
    "prefix_restart": prefix_restart,
    "shortest_option": shortest_option,
}


def solved_share(
    baseline: Baseline, options: Sequence[str], answer_idx: int, question: str, lines: Sequence[str]
) -> float:
    """Share of the option orders in which ``baseline`` picks the answer."""
    orders = list(itertools.permutations(range(len(options))))
    hits = 0
    for order in orders:
        shown = [options[i] for i in order]
        hits += order[baseline(shown, question, lines)] == answer_idx
    return hits / len(orders)


@dataclass
class TextOnlyBudget:
    """One family's running chance and baseline shares (see the module docstring)."""

    margin: float
    items: int = 0
    chance: float = 0.0  # the sum of 1 / options
    hits: dict[str, float] = field(default_factory=dict)  # baseline -> the sum of shares

    def admits(self, shares: dict[str, float], options: int) -> bool:
        limit = self.chance + 1 / options + self.margin * (self.items + 1)
        return all(self.hits.get(b, 0.0) + s <= limit + 1e-9 for b, s in shares.items())

    def add(self, shares: dict[str, float], options: int) -> None:
        self.items += 1
        self.chance += 1 / options
        for name, share in shares.items():
            self.hits[name] = self.hits.get(name, 0.0) + share

    def report(self) -> dict[str, float | int]:
        """Mean share per baseline beside chance, over the kept items."""
        n = max(1, self.items)
        return {
            "items": self.items,
            "chance": round(self.chance / n, 4),
            **{b: round(h / n, 4) for b, h in sorted(self.hits.items())},
        }
