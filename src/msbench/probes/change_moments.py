"""VCD's distractor moments: times a timed transcript cannot tell from the answer.

A VCD option is a moment shown to a tenth of a second (``at 00:07.4``). Text-only readers of a
timed transcript (:mod:`msbench.probes.textonly`) look at how near a moment lies to a line's
start or end (``nearest_boundary``), how many lines cover it (``most_lines_at``,
``fewest_lines_at``) and at the moments' order in time (``transcript_order``,
``transcript_latest``). A distractor here is a shown moment that

* is false with room to spare: fewer than two voices within the truth tolerance plus
  ``SAFETY`` of it (``overlap``: no overlap), by :func:`msbench.probes.truth.change_truth`
  itself and by the transcript lines (speakers with a line that near);
* lies 1 s or more from the answer and from every other distractor, and its window (the
  tolerance plus ``SAFETY``) between the clip's first line's start and last line's end (a line
  crossing the clip's edge is not among the clip's lines, though its voice is heard);
* is covered by as many transcript lines as the answer (the same for the line readers);
* lies no farther from a line's start or end than the answer, the equally near first
  (the boundary reader then ties or errs);

and the answer's rank in time among the options is a seeded uniform draw over the ranks the
candidates allow (the order readers are at chance over items). Every test is on the shown
(rounded) times against the lines as the readers see them (clip-relative, to 1e-6 s).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any

from msbench.probes.clips import Clip
from msbench.probes.text import clock
from msbench.probes.truth import change_truth, shown_seconds

#: Distractors lie at least this far (s) from the answer and from each other.
SPACING = 1.0
#: A distractor is false with this much room (s) beyond the truth tolerance, on the speaker
#: timeline and on the transcript lines: a reader of either finds one voice around it.
SAFETY = 0.25
#: Shown moments are tenths of a second (:func:`msbench.probes.text.clock`).
STEP = 0.1


def _lines(clip: Clip) -> list[tuple[float, float]]:
    return [(round(x.start - clip.start, 6), round(x.end - clip.start, 6)) for x in clip.lines]


def boundary_distance(t: float, lines: Sequence[tuple[float, float]]) -> float:
    """Distance (s) from ``t`` to the nearest line start or end (as ``nearest_boundary``).

    >>> boundary_distance(4.1, [(0.0, 4.0), (4.2, 6.0)])
    0.1
    """
    return round(min((abs(t - e) for span in lines for e in span), default=float("inf")), 6)


def coverage(t: float, lines: Sequence[tuple[float, float]]) -> int:
    """Lines covering ``t`` (``start <= t < end``, as ``most_lines_at``/``fewest_lines_at``)."""
    return sum(a <= t < b for a, b in lines)


def _voices(clip: Clip, moment: float, window: float) -> int:
    """Speakers with a transcript line within ``window`` s of ``moment`` (lines and the
    speaker timeline may differ at their edges: both must show one voice)."""
    return len(
        {x.speaker for x in clip.lines if x.start < moment + window and moment - window < x.end}
    )


def _shown(clip: Clip, t: float) -> float:
    """Clip-relative ``t`` as an option shows it and a reader parses it (to a tenth)."""
    return round(shown_seconds(f"at {clock(t)}", clip)[0] - clip.start, 6)


def change_distractors(
    clip: Clip, kind: str, answer: float, count: int, tolerance: float, rng: random.Random
) -> list[float]:
    """Up to ``count`` distractor moments (recording time) for a VCD answer at ``answer``."""
    lines = _lines(clip)
    shown_answer = _shown(clip, answer - clip.start)
    distance, covered = boundary_distance(shown_answer, lines), coverage(shown_answer, lines)
    draft: Any = SimpleNamespace(subtask=kind)  # change_truth reads the subtask alone
    wide = tolerance + SAFETY
    # the clip's lines are whole only between its first line's start and last line's end (a
    # line crossing the clip's edge is not among them, though its voice is heard)
    low = max(0.0, min((a for a, _ in lines), default=0.0)) + wide
    high = min(clip.end - clip.start, max((b for _, b in lines), default=0.0)) - wide
    found = []
    for k in range(int((clip.end - clip.start) / STEP) + 1):
        t = round(k * STEP, 6)
        if not low <= t <= high or abs(t - shown_answer) < SPACING or coverage(t, lines) != covered:
            continue
        near = boundary_distance(t, lines)
        if near > distance + 1e-9:
            continue
        option = f"at {clock(t)}"
        (moment,) = shown_seconds(option, clip)
        if change_truth(draft, clip, [option], wide)[0] or _voices(clip, moment, wide) >= 2:
            continue
        found.append((round(distance - near, 6), rng.random(), moment))
    preferred = [moment for _, _, moment in sorted(found)]
    return _ranked(preferred, clip.start + shown_answer, count, rng)


def _spaced(points: Sequence[float], count: int, taken: list[float]) -> list[float]:
    chosen: list[float] = []
    for p in points:
        if len(chosen) == count:
            break
        if all(abs(p - q) >= SPACING for q in [*taken, *chosen]):
            chosen.append(p)
    return chosen


def _ranked(points: Sequence[float], answer: float, count: int, rng: random.Random) -> list[float]:
    """``count`` points (preferred first, spaced) with the answer's rank in time drawn uniformly
    over the ranks the points allow; in time order."""
    before = _spaced([p for p in points if p < answer], count, [answer])
    after = _spaced([p for p in points if p > answer], count, [answer])
    n = min(count, len(before) + len(after))
    rank = rng.randint(max(0, n - len(after)), min(n, len(before)))
    return sorted(before[:rank] + after[: n - rank])
