"""Text-only solvability: baselines that see no audio, run in every option order.

* ``options_only`` sees the options: it picks the middle value of numeric
  options, else the longest option (the first shown on a tie).
* ``transcript`` also sees the clip's transcript without speakers (lines in
  time order): for a question quoting a line it picks the option that is the
  line right after the quote in the transcript, else the option most similar to
  the transcript's lines near the quote; with no quote, the first option.

An item is *text-solvable* when a baseline picks its answer in more than half of
its option orders (all permutations, 120 for five options): such items are
dropped (``probes.text_only: drop``) or kept with the flag (``flag``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

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


def transcript(options: Sequence[str], question: str, lines: Sequence[str]) -> int:
    """The option after the quoted line in the transcript (see the module docstring)."""
    if '"' not in question:
        return 0
    quoted = question.split('"')[1].removesuffix(" ...")
    at = max(range(len(lines)), key=lambda i: _overlap(lines[i], quoted), default=None)
    if at is None:
        return 0
    nearby = lines[at + 1 : at + 3]
    scores = [max((_overlap(o, x) for x in nearby), default=0.0) for o in options]
    return scores.index(max(scores))


BASELINES: dict[str, Baseline] = {"options_only": options_only, "transcript": transcript}


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
