"""Lexical and segmentation errors: each insertion and deletion of the speaker-agnostic WER, classified.

From the speaker-agnostic alignment (:func:`msbench.scoring.diagnosis.alignment.agnostic_alignment`):

- every **substitution** is lexical (``S``);
- a **deleted** reference word is ``D_seg`` when its pseudo-word midpoint lies
  farther than ``tolerance`` from every hypothesised segment of any speaker
  (the speech region was missed or discarded), else ``D_lex``;
- an **inserted** hypothesis word is ``I_seg`` when its pseudo-word midpoint
  lies farther than ``tolerance`` from every reference segment of any speaker
  (speech falsely detected), else ``I_lex``.

``E_lex = (S + I_lex + D_lex) / N_ref`` and ``E_seg = (I_seg + D_seg) / N_ref``,
so ``E_lex + E_seg`` is the speaker-agnostic WER exactly. Distances are
exact integer microseconds (:mod:`msbench.timeline`); the tolerance is
``scoring.segmentation_tolerance`` (default 0.25 s, the DER collar).

An insertion belongs to the utterance of the nearest reference word before
it in the alignment, else the nearest after it (so per-utterance rates add up
to the unit's); a unit without reference words keeps its insertions at unit
level (``utterance = None``).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass

from msbench.scoring.diagnosis.alignment import Pair
from msbench.timeline import Span, to_micros

DEFAULT_SEGMENTATION_TOLERANCE = 0.25
KINDS = ("s", "i_lex", "i_seg", "d_lex", "d_seg")


def near(point: int, spans: Sequence[Span], tolerance: int) -> bool:
    """Whether ``point`` lies within ``tolerance`` of a span of sorted, merged ``spans``.

    >>> near(5, [(0, 2), (10, 12)], 3), near(6, [(0, 2), (10, 12)], 3)
    (True, False)
    """
    index = bisect.bisect_right(spans, (point, point))
    return any(
        spans[k][0] - tolerance <= point <= spans[k][1] + tolerance
        for k in (index - 1, index)
        if 0 <= k < len(spans)
    )


@dataclass(frozen=True)
class Edit:
    """One error of the agnostic alignment: its kind and the reference utterance it belongs to."""

    kind: str  # one of KINDS
    utterance: int | None


def classify(
    pairs: Sequence[Pair],
    ref_speech: Sequence[Span],
    hyp_speech: Sequence[Span],
    tolerance: float = DEFAULT_SEGMENTATION_TOLERANCE,
) -> list[Edit]:
    """Every error of ``pairs`` with its kind (see the module docstring)."""
    tol = to_micros(tolerance)
    owners = _utterance_of_each_step(pairs)
    edits = []
    for pair, owner in zip(pairs, owners, strict=True):
        kind = pair.kind
        if kind == "substitution":
            edits.append(Edit("s", owner))
        elif kind == "deletion" and pair.ref is not None:
            seg = not near(to_micros(pair.ref.midpoint), hyp_speech, tol)
            edits.append(Edit("d_seg" if seg else "d_lex", owner))
        elif kind == "insertion" and pair.hyp is not None:
            seg = not near(to_micros(pair.hyp.midpoint), ref_speech, tol)
            edits.append(Edit("i_seg" if seg else "i_lex", owner))
    return edits


def _utterance_of_each_step(pairs: Sequence[Pair]) -> list[int | None]:
    """The reference utterance of each step: its own, else the previous one, else the next."""
    owners: list[int | None] = []
    last: int | None = None
    for pair in pairs:
        if pair.ref is not None:
            last = pair.ref.segment
        owners.append(last)
    following: int | None = None
    for k in range(len(pairs) - 1, -1, -1):
        ref = pairs[k].ref
        if ref is not None:
            following = ref.segment
        if owners[k] is None:
            owners[k] = following
    return owners
