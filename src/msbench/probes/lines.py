"""Quotable lines of a clip, and the distractor lines offered beside an answer.

A *quotable* line has at least 3 words and lasts at least 1 s, and no other
speaker of the clip says the same shown text; options show a line's first 16
words. Distractor lines come from other speakers of the clip, the answer's
length class first, then the others, distinct after normalisation.
"""

from __future__ import annotations

from collections.abc import Sequence

from msbench.probes.clips import Clip, Line
from msbench.probes.evidence import Evidence
from msbench.probes.items import distinct
from msbench.probes.text import length_class, normalise, quote


def shown(line: Line) -> str:
    return quote(line.words).strip('"')


def quotable(clip: Clip, speaker: str | None = None) -> list[Line]:
    """Lines of 3+ words and 1+ s whose shown text no other speaker of the clip says too."""
    said: dict[str, set[str]] = {}
    for x in clip.lines:
        said.setdefault(normalise(shown(x)), set()).add(x.speaker)
    return [
        x for x in clip.lines
        if len(normalise(x.words).split()) >= 3 and x.seconds >= 1.0 and speaker in (None, x.speaker)
        and len(said[normalise(shown(x))]) == 1
    ]  # fmt: skip


def distractor_lines(
    clip: Clip, answer: Line, exclude: str, first: Sequence[Line] = ()
) -> list[str]:
    others = [x for x in quotable(clip) if x.speaker != exclude]
    same = [x for x in others if length_class(x.words) == length_class(answer.words)]
    rest = [x for x in others if x not in same]
    return distinct(shown(answer), [shown(x) for x in (*first, *same, *rest)], 4)


def speakers_of(clip: Clip, texts: list[str]) -> list[str]:
    """Who said each shown line (quotable lines have one speaker each)."""
    said = {normalise(shown(line)): line.speaker for line in quotable(clip)}
    return [said[normalise(text)] for text in texts]


def evidence_of(*lines: Line) -> list[Evidence]:
    return [Evidence(x.speaker, x.start, x.end) for x in lines]
