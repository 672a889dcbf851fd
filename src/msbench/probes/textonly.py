"""Text-only baselines: readers that hear nothing, run in every option order.

Each sees the question, the options and (some) the clip's transcript without
speakers, lines in time order, each with its clip-relative start and end
(:class:`Said`; a reader of plain text reads only the words):

* ``options_only``: the middle value of numeric options, else the longest option;
* ``transcript``: the option most like the lines right after the quoted line;
* ``follows_quote``: the option found one or two lines after the quoted line;
* ``transcript_order``: the option that comes earliest in the transcript (for
  times, the earliest time), as "which did they say first" tempts;
* ``lexical_overlap``: the option sharing the most words with the quoted line;
* ``prefix_restart``: the option whose first words agree longest with the
  quoted line's (a restart of the quote gives itself away);
* the opposites, readers that "avoid the obvious": ``shortest_option``,
  ``transcript_latest`` (latest in the transcript, or the latest time) and
  ``lexical_distance`` (the option sharing the fewest words with the quote);
* readers of the options' *durations*: ``longest_span`` and ``shortest_span``
  (options ``from 00:03.0 to 00:05.5``);
* readers that count: ``word_lines`` (for "how many speakers say the word
  *w*": the option nearest the number of transcript lines holding *w*);
* readers of the *timed* transcript: ``nearest_boundary`` (the time nearest a
  line's start or end), ``most_lines_at`` (the time or span covered by the
  most lines at once: overlaps show there), ``fewest_lines_at`` (the least
  covered: gaps and changes show there).

The transcript shows no speaker labels: with them, every attribution item is
a look-up, which is what the audio is for. A reader that does not apply to an
item (spans where the options are lines) picks the first option, i.e.
chance over the option orders.

A baseline's *share* on an item is how often it picks the answer over all
option orders (120 for five options; :mod:`msbench.probes.budget`); a
position-dependent tie is chance. With ``probes.text_only: drop`` the
generator keeps the most items per family such that every reader's mean share
in every task stays within ``probes.text_only_margin`` (5 points) of chance
(:func:`msbench.probes.generate._admitted`, an integer program).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from msbench.probes.text import normalise

Baseline = Callable[[Sequence[str], str, Sequence[Any]], int]


@dataclass(frozen=True)
class Said:
    """One transcript line as the timed readers see it: words, clip-relative start and end (s)."""

    words: str
    start: float = 0.0
    end: float = 0.0


def texts(lines: Sequence[Any]) -> list[str]:
    """The words of each line (a line may be plain text)."""
    return [x if isinstance(x, str) else x.words for x in lines]


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
    """Jaccard overlap of two texts' normalised token sets."""
    x, y = _token_set(a), _token_set(b)
    return len(x & y) / len(x | y) if x | y else 0.0


@functools.lru_cache(maxsize=1 << 16)
def _token_set(text: str) -> frozenset[str]:
    return frozenset(normalise(text).split())


def _quoted(question: str) -> str | None:
    return question.split('"')[1].removesuffix(" ...") if question.count('"') >= 2 else None


def transcript(options: Sequence[str], question: str, lines: Sequence[str]) -> int:
    """The option most like the lines after the quoted line (the first option without a quote)."""
    quoted = _quoted(question)
    lines = texts(lines)
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
    times = [_times(o) for o in options]
    if all(times):
        first = [t[0] for t in times]
        return first.index(min(first))
    lines = texts(lines)

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
    times = [_times(o) for o in options]
    if all(times):
        first = [t[0] for t in times]
        return first.index(max(first))
    lines = texts(lines)

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


def follows_quote(options: Sequence[str], question: str, lines: Sequence[Any]) -> int:
    """The option whose line comes one or two lines after the quoted line (else the first).

    >>> follows_quote(["c d", "e f"], 'said "a b"', ["a b", "x", "e f"])
    1
    """
    quoted = _quoted(question)
    lines = texts(lines)
    if quoted is None or not lines:
        return 0
    at = max(range(len(lines)), key=lambda i: _overlap(lines[i], quoted))

    def place(option: str) -> int:
        scores = [_overlap(option, line) for line in lines]
        return scores.index(max(scores)) if max(scores) > 0 else -10

    near = [0 < place(o) - at <= 2 for o in options]
    return near.index(True) if any(near) else 0


def _times(option: str) -> list[float]:
    return [60 * int(m) + float(s) for m, s in _TIME.findall(option)]


def _durations(options: Sequence[str]) -> list[float] | None:
    spans = [_times(o) for o in options]
    return [t[1] - t[0] for t in spans] if all(len(t) == 2 for t in spans) else None


def longest_span(options: Sequence[str], question: str, lines: Sequence[Any]) -> int:
    """The option spanning the most time (``from A to B``); else the first.

    >>> longest_span(["from 00:01.0 to 00:02.0", "from 00:05.0 to 00:09.5"], "", [])
    1
    """
    durations = _durations(options)
    return durations.index(max(durations)) if durations else 0


def shortest_span(options: Sequence[str], question: str, lines: Sequence[Any]) -> int:
    """The option spanning the least time; else the first.

    >>> shortest_span(["from 00:01.0 to 00:02.0", "from 00:05.0 to 00:09.5"], "", [])
    0
    """
    durations = _durations(options)
    return durations.index(min(durations)) if durations else 0


def word_lines(options: Sequence[str], question: str, lines: Sequence[Any]) -> int:
    """For "how many ... say the word w": the option nearest the count of lines holding w.

    >>> word_lines(["1", "2", "3"], 'How many distinct speakers say the word "plan"?', ["a plan", "the plan", "no"])
    1
    """
    word = _quoted(question)
    numbers = [_number(o) for o in options]
    if word is None or any(n is None for n in numbers):
        return 0
    count = sum(word in normalise(x).split() for x in texts(lines))
    gaps = [abs(n - count) for n in numbers]  # type: ignore[operator]
    return gaps.index(min(gaps))


def _timed(lines: Sequence[Any]) -> list[Said]:
    return [x for x in lines if isinstance(x, Said)]


def nearest_boundary(options: Sequence[str], question: str, lines: Sequence[Any]) -> int:
    """The time option nearest a line's start or end (a change shows as a boundary); else the first.

    >>> nearest_boundary(["at 00:02.0", "at 00:04.1"], "", [Said("a", 0.0, 4.0), Said("b", 4.2, 6.0)])
    1
    """
    points = [_times(o) for o in options]
    edges = [t for x in _timed(lines) for t in (x.start, x.end)]
    if not edges or not all(len(p) == 1 for p in points):
        return 0
    gaps = [min(abs(p[0] - e) for e in edges) for p in points]
    return gaps.index(min(gaps))


def _covering(option: str, lines: Sequence[Said]) -> float | None:
    """How many lines cover the option's time (a span: their mean count over it)."""
    t = _times(option)
    if len(t) == 1:
        return float(sum(x.start <= t[0] < x.end for x in lines))
    if len(t) == 2 and t[1] > t[0]:
        return sum(max(0.0, min(t[1], x.end) - max(t[0], x.start)) for x in lines) / (t[1] - t[0])
    return None


def _cover_pick(options: Sequence[str], lines: Sequence[Any], pick: Callable[..., Any]) -> int:
    """The option ``pick`` (max or min) chooses by lines covering it; the first if none apply."""
    cover = [_covering(o, _timed(lines)) for o in options]
    if not _timed(lines) or any(c is None for c in cover):
        return 0
    return cover.index(pick(cover))


def most_lines_at(options: Sequence[str], question: str, lines: Sequence[Any]) -> int:
    """The time or span covered by the most transcript lines at once (overlaps); else the first.

    >>> most_lines_at(["at 00:01.0", "at 00:03.0"], "", [Said("a", 0.0, 4.0), Said("b", 2.5, 6.0)])
    1
    """
    return _cover_pick(options, lines, max)


def fewest_lines_at(options: Sequence[str], question: str, lines: Sequence[Any]) -> int:
    """The time or span covered by the fewest lines (gaps, changes); else the first.

    >>> fewest_lines_at(["at 00:01.0", "at 00:04.1"], "", [Said("a", 0.0, 4.0), Said("b", 4.2, 6.0)])
    1
    """
    return _cover_pick(options, lines, min)


BASELINES: dict[str, Baseline] = {
    "options_only": options_only,
    "transcript": transcript,
    "follows_quote": follows_quote,
    "transcript_order": transcript_order,
    "transcript_latest": transcript_latest,
    "lexical_overlap": lexical_overlap,
    "lexical_distance": lexical_distance,
    "prefix_restart": prefix_restart,
    "shortest_option": shortest_option,
    "longest_span": longest_span,
    "shortest_span": shortest_span,
    "word_lines": word_lines,
    "nearest_boundary": nearest_boundary,
    "most_lines_at": most_lines_at,
    "fewest_lines_at": fewest_lines_at,
}
