"""Quotable lines of a clip, and the distractor lines offered beside an answer.

A *quotable* line has at least 3 words, at least 2 content words (a filler
such as "Mm mm hmm" or "yeah okay right" is never quoted or offered), lasts at
least 1 s, no other speaker of the clip says the same shown text, and it is
not a restart of another line of the clip nor near-identical to one
(:func:`msbench.probes.text.is_restart`, :func:`~msbench.probes.text.near_identical`):
a text-only reader would pair those. Options show a line's first 16 words.
Distractor lines come from other speakers of the clip, the answer's length
class first, then the others, each group nearest the answer's shown length
(characters) first, so that the answer is neither the long nor the short one
by rule; each near-identical to no other option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from msbench.probes.clips import Clip, Line
from msbench.probes.evidence import Evidence
from msbench.probes.text import content_words, length_class, near_identical, normalise, quote


def shown(line: Line) -> str:
    return quote(line.words).strip('"')


_QUOTABLE: dict[tuple[Line, ...], tuple[Line, ...]] = {}  # by the clip's lines


def _quotable(clip: Clip) -> tuple[Line, ...]:
    if clip.lines not in _QUOTABLE:
        _QUOTABLE[clip.lines] = _find_quotable(clip)
    return _QUOTABLE[clip.lines]


def unquotable_reason(clip: Clip, line: Line) -> str | None:
    """Why ``line`` is neither quoted nor offered (the module docstring's rules), or None."""
    if not line.words.strip():
        return None  # speech without words is never a candidate; not counted
    text = normalise(shown(line))
    if len(normalise(line.words).split()) < 3:
        return "fewer than 3 words"
    if len(content_words(line.words)) < 2:
        return "fewer than 2 content words (a filler)"
    if line.seconds < 1.0:
        return "shorter than 1 s"
    if any(x.speaker != line.speaker and normalise(shown(x)) == text for x in clip.lines):
        return "another speaker says the same"
    if any(
        y is not line and y.words.strip() and near_identical(shown(line), shown(y))
        for y in clip.lines
    ):
        return "a restart of, or near-identical to, another line"
    return None


def _find_quotable(clip: Clip) -> tuple[Line, ...]:
    return tuple(x for x in clip.lines if x.words.strip() and unquotable_reason(clip, x) is None)


def unquoted_counts(clips: Sequence[Clip]) -> Counter[str]:
    """How many lines with words of the clips each rule kept from quotes and options."""
    counts: Counter[str] = Counter()
    for clip in clips:
        for line in clip.lines:
            reason = unquotable_reason(clip, line)
            if reason:
                counts[reason] += 1
    return counts


def quotable(clip: Clip, speaker: str | None = None) -> list[Line]:
    """The clip's quotable lines (see the module docstring), of ``speaker`` when given."""
    return [x for x in _quotable(clip) if speaker in (None, x.speaker)]


def distinct_lines(answer: str, candidates: Sequence[str], count: int) -> list[str]:
    """Up to ``count`` candidates near-identical to neither the answer nor each other."""
    kept: list[str] = []
    for candidate in candidates:
        if not any(near_identical(candidate, other) for other in (answer, *kept)):
            kept.append(candidate)
        if len(kept) == count:
            break
    return kept


def distractor_lines(
    clip: Clip, answer: Line, exclude: str, first: Sequence[Line] = ()
) -> list[str]:
    others = [x for x in quotable(clip) if x.speaker != exclude]
    size = len(shown(answer))
    others.sort(key=lambda x: (abs(len(shown(x)) - size), x.start, x.speaker))
    same = [x for x in others if length_class(x.words) == length_class(answer.words)]
    rest = [x for x in others if x not in same]
    return distinct_lines(shown(answer), [shown(x) for x in (*first, *same, *rest)], 4)


def speakers_of(clip: Clip, texts: list[str]) -> list[str]:
    """Who said each shown line (quotable lines have one speaker each)."""
    said = {normalise(shown(line)): line.speaker for line in quotable(clip)}
    return [said[normalise(text)] for text in texts]


def evidence_of(*lines: Line) -> list[Evidence]:
    return [Evidence(x.speaker, x.start, x.end) for x in lines]
