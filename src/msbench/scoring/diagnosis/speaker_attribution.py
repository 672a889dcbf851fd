"""Speaker attribution of reference utterances (E_attr) and pairwise confusion C_{i->j}.

From the time-constrained speaker-agnostic alignment
(:func:`msbench.scoring.diagnosis.alignment.align_words` with the tcpWER collar) and
the unit's speaker mapping (the tcpWER assignment: hypothesis speaker ->
reference speaker; a hypothesis speaker it leaves unmatched maps to nobody):

- a reference token is *aligned* when the alignment pairs it with a
  hypothesis token (correct or substituted); it is *attributed* to the
  reference speaker that the paired token's hypothesis speaker maps to;
- an utterance is attributed to the hypothesis speaker holding most of its
  aligned tokens (a tie goes to the speaker whose token comes first); it is
  **misattributed** when that speaker maps to another reference speaker or to
  nobody. Utterances without an aligned token are *not attributable*: counted
  (``utterances - utterances_attributable``), never in E_attr's denominator;
- ``E_attr = misattributed / attributable`` utterances;
- ``C_{i->j}`` = aligned tokens of reference speaker ``i`` attributed to ``j``
  / aligned tokens of ``i`` (``j`` may be ``i``; tokens mapped to nobody count
  in the denominator only).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from msbench.scoring.diagnosis.alignment import Pair

UNMAPPED = ""


@dataclass(frozen=True)
class Attribution:
    """One reference utterance: aligned tokens, and who they went to."""

    aligned: int
    hyp_speaker: str | None  # the majority hypothesis speaker; None: not attributable
    attributed_to: str | None  # the reference speaker it maps to ("" = nobody)
    misattributed: bool


def mapping_of(assignment: Sequence[tuple[str | None, str | None]]) -> dict[str, str]:
    """Hypothesis speaker -> reference speaker, from meeteval's ``(ref, hyp)`` assignment.

    >>> mapping_of([("A", "x"), ("B", None), (None, "y")])
    {'x': 'A'}
    """
    return {hyp: ref for ref, hyp in assignment if ref is not None and hyp is not None}


def attribute(
    pairs: Sequence[Pair],
    speakers: Sequence[str],
    mapping: Mapping[str, str],
) -> list[Attribution]:
    """One :class:`Attribution` per reference utterance (``speakers[k]``: utterance k's speaker)."""
    votes: list[Counter[str]] = [Counter() for _ in speakers]
    first_seen: list[dict[str, int]] = [{} for _ in speakers]
    for step, pair in enumerate(pairs):
        if pair.ref is None or pair.hyp is None:
            continue
        k = pair.ref.segment
        votes[k][pair.hyp.speaker] += 1
        first_seen[k].setdefault(pair.hyp.speaker, step)
    out = []
    for k, speaker in enumerate(speakers):
        if not votes[k]:
            out.append(Attribution(0, None, None, False))
            continue
        winner = min(votes[k], key=lambda h: (-votes[k][h], first_seen[k][h]))
        target = mapping.get(winner, UNMAPPED)
        out.append(Attribution(sum(votes[k].values()), winner, target, target != speaker))
    return out


def confusion_counts(
    pairs: Sequence[Pair], mapping: Mapping[str, str], utterances: set[int] | None = None
) -> Counter[tuple[str, str]]:
    """Aligned tokens per ``(reference speaker i, attributed speaker j)``, optionally of some utterances."""
    counts: Counter[tuple[str, str]] = Counter()
    for pair in pairs:
        if pair.ref is None or pair.hyp is None:
            continue
        if utterances is not None and pair.ref.segment not in utterances:
            continue
        counts[(pair.ref.speaker, mapping.get(pair.hyp.speaker, UNMAPPED))] += 1
    return counts
