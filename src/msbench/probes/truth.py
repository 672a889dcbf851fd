"""Which options of a draft are true by the annotation: an item is kept only when exactly one is.

Each family's question is read literally against the clip's lines and speaker
timeline, on what the options *show* (times as displayed, to 0.1 s), with the
tolerance ``probes.truth_tolerance_seconds`` (:data:`TOLERANCE`, 0.25 s):

* **VC**: the count of speakers with words (``count_min_words``, ``count_min_seconds``);
* **VL** ``when_speaking``: the speaker talks in the shown span for more than the
  tolerance; ``when_silent``: for at most the tolerance;
* **VCD**: within the tolerance of the shown moment two speakers are active
  (``overlap``), or the active speaker changes (``switch``: more than one
  speaker in the window);
* **CVA**: the voice's speaker said the quoted line (a near-identical line);
* **VCA**, **IR**: the option is a line the speaker said (IR: not the quote);
* **TR** ``first``: of the options the speaker said, the one said earliest;
  ``next``: the speaker's first line after the quote;
* **QR** ``word_count``: the number of speakers saying the word; ``rank_k``: a
  line of the speaker with the k-th longest speech.

A draft whose true options are not exactly its answer is dropped, and counted.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from msbench.probes.clips import Clip, Line
from msbench.probes.items import Draft
from msbench.probes.text import content_words, near_identical
from msbench.timeline import covered, to_micros

TOLERANCE = 0.25  # seconds
_CLOCK = re.compile(r"(\d+):(\d+(?:\.\d+)?)")


def shown_seconds(option: str, clip: Clip) -> list[float]:
    """The recording times an option shows (``from 00:02.1 to 00:13.2`` -> two times).

    >>> shown_seconds("from 00:02.1 to 01:13.2", Clip("c", "r", 10.0, 100.0, ()))
    [12.1, 83.2]
    """
    return [round(clip.start + 60 * int(m) + float(s), 6) for m, s in _CLOCK.findall(option)]


def _said(clip: Clip, speaker: str, text: str) -> list[Line]:
    return [x for x in clip.lines_of(speaker) if x.words.strip() and near_identical(x.words, text)]


def _speaking(clip: Clip, speaker: str, start: float, end: float) -> float:
    spans = list(clip.timeline.turns_by_speaker.get(speaker, ()))
    return covered((to_micros(start), to_micros(end)), spans) / 1e6


def _active(clip: Clip, start: float, end: float) -> list[str]:
    return [s for s in clip.timeline.speakers if _speaking(clip, s, start, end) > 0]


#: A family's truth rule: which of a draft's options (answer first) are true in the clip.
TruthRule = Callable[[Draft, Clip, list[str], float], list[bool]]


def true_options(
    draft: Draft, clip: Clip, settings: Mapping[str, Any], rule: TruthRule
) -> list[int]:
    """Indices (0 = the answer, then the distractors) of the options that ``rule`` (the draft's
    family's, :data:`msbench.probes.families.FAMILIES`) finds true."""
    tolerance = float(settings.get("truth_tolerance_seconds", TOLERANCE))
    options = [draft.answer, *draft.distractors]
    return [k for k, true in enumerate(rule(draft, clip, options, tolerance)) if true]


def count_truth(draft: Draft, clip: Clip, options: list[str], tolerance: float) -> list[bool]:
    """VC, QR word count: the option that is the derived count."""
    return [option == str(draft.derivation["count"]) for option in options]


def localisation_truth(
    draft: Draft, clip: Clip, options: list[str], tolerance: float
) -> list[bool]:
    """VL: the shown spans in which the speaker speaks (``when_silent``: does not)."""
    speaker = draft.derivation["speaker"]
    coverage = [_speaking(clip, speaker, *shown_seconds(o, clip)) for o in options]
    silent = draft.subtask == "when_silent"
    return [(c <= tolerance) if silent else (c > tolerance) for c in coverage]


def change_truth(draft: Draft, clip: Clip, options: list[str], tolerance: float) -> list[bool]:
    """VCD: the shown moments with two voices within the tolerance (``overlap``: overlapping)."""
    truth = []
    for option in options:
        (moment,) = shown_seconds(option, clip)
        window = (moment - tolerance, moment + tolerance)
        if draft.subtask == "overlap":
            truth.append(any(b > a for a, b in _overlaps(clip, *window)))
        else:
            truth.append(len(_active(clip, *window)) >= 2)
    return truth


def speaker_truth(draft: Draft, clip: Clip, options: list[str], tolerance: float) -> list[bool]:
    """CVA: the option speakers who said the quoted line."""
    return [bool(_said(clip, speaker, draft.derivation["line"])) for speaker in options]


def quantity_truth(draft: Draft, clip: Clip, options: list[str], tolerance: float) -> list[bool]:
    """QR: the count for ``word_count``, the speaker's lines for the rank tasks."""
    if draft.subtask == "word_count":
        return count_truth(draft, clip, options, tolerance)
    return line_truth(draft, clip, options, tolerance)


def _overlaps(clip: Clip, start: float, end: float) -> list[tuple[float, float]]:
    a, b = to_micros(start), to_micros(end)
    return [(max(x, a) / 1e6, min(y, b) / 1e6) for x, y in clip.timeline.overlap()]


def line_truth(draft: Draft, clip: Clip, options: list[str], tolerance: float = 0.0) -> list[bool]:
    """VCA, IR, TR, QR rank: which options are lines of the speaker the question is about."""
    derivation, task = draft.derivation, draft.subtask
    speaker = derivation["speaker"]
    quoted = derivation.get("quoted")
    said = [
        [x for x in _said(clip, speaker, o) if not (quoted and near_identical(x.words, quoted))]
        for o in options
    ]
    if task == "first":
        starts = [min(x.start for x in lines) if lines else None for lines in said]
        earliest = min((s for s in starts if s is not None), default=None)
        return [s is not None and s == earliest for s in starts]
    if task == "next":
        after = min(x.end for x in _said(clip, speaker, quoted)) if quoted else clip.start
        following = [x for x in clip.lines_of(speaker) if x.words.strip() and x.start >= after]
        first = min(following, key=lambda x: x.start) if following else None
        return [first is not None and any(x == first for x in lines) for lines in said]
    return [bool(lines) for lines in said]


def word_speakers(clip: Clip, word: str) -> set[str]:
    """Speakers of the clip saying the content word (whole-token match)."""
    return {x.speaker for x in clip.lines if word in content_words(x.words)}
