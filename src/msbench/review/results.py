"""A system's errors on one recording page: hypothesis lanes, marked utterances, unit scores.

Reads what ``msbench evaluate`` wrote (``unit_scores.csv``, ``utterance_scores.csv``) and the
system's own outputs (through :func:`msbench.scoring.evaluate.load_output`, so
every output format works). Each reference utterance gets one mark, by
precedence: ``misattributed`` (its words were mostly given to another speaker),
``deletion`` (it lost words, D_lex + D_seg > 0), ``insertion`` (words were
inserted against it, I_lex + I_seg > 0), ``substitution``, else ``correct``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msbench.metrics import COMPARED
from msbench.review.recording import speaker_name

#: A unit's facts and the compared metrics' rates (msbench.metrics), as the recording page shows.
UNIT_SCORES = ("status", "reason", "degradation", *(m.name for m in COMPARED))


def utterance_mark(row: Mapping[str, Any]) -> str:
    """The mark of one row of a system's ``utterance_scores.csv`` (precedence in the module doc).

    >>> utterance_mark({"misattributed": True, "d_lex": 1, "d_seg": 0, "i_lex": 0, "i_seg": 0, "s": 0})
    'misattributed'
    >>> utterance_mark({"misattributed": False, "d_lex": 0, "d_seg": 0, "i_lex": 0, "i_seg": 2, "s": 1})
    'insertion'
    """
    if row.get("misattributed"):
        return "misattributed"
    if int(row["d_lex"]) + int(row["d_seg"]):
        return "deletion"
    if int(row["i_lex"]) + int(row["i_seg"]):
        return "insertion"
    return "substitution" if int(row["s"]) else "correct"


def _relative(value: float, window: tuple[float, float]) -> float:
    return round(value - window[0], 6)


def marks(
    utterances: Sequence[Mapping[str, Any]], window: tuple[float, float]
) -> list[dict[str, Any]]:
    rows = []
    for row in utterances:
        start, end = float(row["start_time"]), float(row["end_time"])
        if end <= window[0] or start >= window[1]:
            continue
        rows.append(
            {
                "speaker": speaker_name(str(row["speaker"])),
                "start": _relative(max(start, window[0]), window),
                "end": _relative(min(end, window[1]), window),
                "mark": utterance_mark(row),
                "attributed_to": speaker_name(str(row["attributed_to"] or "")) or None,
                "counts": {k: int(row[k]) for k in ("s", "i_lex", "i_seg", "d_lex", "d_seg")},
            }
        )
    return rows


def hypothesis_lanes(
    segments: Sequence[Any], window: tuple[float, float]
) -> tuple[list[str], list[dict[str, Any]]]:
    """Hypothesis speakers (in order of first speech) and their segments inside ``window``."""
    rows = []
    for segment in sorted(segments, key=lambda s: (s.start_time, s.end_time, s.speaker)):
        if segment.end_time <= window[0] or segment.start_time >= window[1]:
            continue
        rows.append(
            {
                "speaker": str(segment.speaker),
                "start": _relative(max(segment.start_time, window[0]), window),
                "end": _relative(min(segment.end_time, window[1]), window),
                "words": segment.words,
            }
        )
    speakers = list(dict.fromkeys(r["speaker"] for r in rows))
    return speakers, rows


def unit_scores(unit: Mapping[str, Any]) -> dict[str, Any]:
    return {"unit_id": unit["unit_id"], "start": unit["start"], "end": unit["end"]} | {
        key: unit.get(key) for key in UNIT_SCORES
    }
