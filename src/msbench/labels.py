"""Speaker labels as people read them: one normalisation, at ingest and in scoring.

A label is taken in Unicode NFC (an accented name typed as one code point or
as a letter and a combining accent is one name), without invisible format
characters (Unicode category ``Cf``: zero-width space, joiners, the byte-order
mark, bidirectional marks), surrounding whitespace stripped and inner runs of
whitespace one space. So ``"Zoë"`` (NFC) and ``"Zoe\\u0308"`` (NFD), ``"spkA"``
and ``"spkA "``, ``"A"`` and ``"A\\u200b"`` are one speaker each. Every label
that changes, and every two raw labels that become one, is said in a note.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import replace
from typing import TypeVar

from msbench.records import Segment

S = TypeVar("S", bound=Segment)


def normalise_label(label: str) -> str:
    """The label as a reader sees it (see the module docstring).

    >>> normalise_label("Zoe\\u0308 "), normalise_label("A\\u200b"), normalise_label(" spk  1 ")
    ('Zoë', 'A', 'spk 1')
    """
    text = unicodedata.normalize("NFC", label)
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " ".join(text.split())


def normalise_speakers(segments: Sequence[S], side: str = "") -> tuple[list[S], list[str]]:
    """Segments with normalised speaker labels, and a note per change and per merge.

    >>> segs = [Segment("s", 0, 1, "A", "x"), Segment("s", 1, 2, "A ", "y")]
    >>> [s.speaker for s in normalise_speakers(segs)[0]], normalise_speakers(segs, "reference")[1]
    (['A', 'A'], ["reference: speaker labels 'A' and 'A ' are one speaker 'A' (Unicode NFC, invisible characters and surrounding spaces removed)"])
    """
    raw_by_label: dict[str, set[str]] = {}
    out = []
    for segment in segments:
        label = normalise_label(segment.speaker)
        raw_by_label.setdefault(label, set()).add(segment.speaker)
        out.append(segment if label == segment.speaker else replace(segment, speaker=label))
    prefix = f"{side}: " if side else ""
    notes = []
    rule = "(Unicode NFC, invisible characters and surrounding spaces removed)"
    for label, raws in sorted(raw_by_label.items()):
        if len(raws) > 1:
            shown = " and ".join(repr(r) for r in sorted(raws))
            notes.append(f"{prefix}speaker labels {shown} are one speaker {label!r} {rule}")
        elif raws != {label}:
            notes.append(f"{prefix}speaker label {next(iter(raws))!r} read as {label!r} {rule}")
    return out, notes
