"""Every word of one scored unit with its class under cpWER and tcpWER: the review site's word view.

The classes come from the alignments the scores come from, never a second aligner:

``cp``   each speaker pair of the cpWER assignment (meeteval's, as scored) aligned by
         kaldialign's own path (:mod:`msbench.scoring.matching.edit_steps`): its S, I and D are the
         unit's cpWER counts.
``tcp``  each speaker pair of the tcpWER assignment aligned by meeteval's time-constrained
         alignment at the tcpWER collar (:func:`msbench.scoring.diagnosis.alignment.align_words`,
         the alignment tcpWER counts in :mod:`msbench.scoring.matching.permutation`).

A speaker the assignment leaves without a partner: its words are all deletions (reference)
or insertions (hypothesis). A word is a **speaker error** in a view when it is wrong there
but correct in the speaker-agnostic alignment (the error decomposition's): the words were
recognised, and given to the wrong speaker.

Word times are meeteval's ``character_based`` share of the word's segment (each word an
interval proportional to its characters; a one-word segment keeps the segment's times), for
both sides. Each word's stream is its speaker's segments in start order (meeteval's
``segment`` sort, stable), its tokens in order.

The file (``alignments/<unit>.json`` of an evaluation folder, copied into the review site)::

    {"unit_id", "start", "end", "tcp_collar", "tokenizer",
     "mapping": {"cp": {hyp speaker: ref speaker}, "tcp": {...}},
     "counts": {"cp": {"substitutions", "insertions", "deletions", "length"}, "tcp": {...}},
     "reference": [{"start", "end", "speaker", "word", "cp", "tcp", "cp_speaker_error",
                    "tcp_speaker_error", "cp_partner", "tcp_partner"}, ...],
     "hypothesis": [... the same keys ...], "problem": null or why the view is incomplete}

``cp``/``tcp``: ``correct``, ``substitution``, ``deletion`` (reference) or ``insertion``
(hypothesis); ``*_partner``: the index of the aligned word on the other side, or null.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.records import Segment
from msbench.scoring.diagnosis.alignment import Pair, align_words
from msbench.scoring.matching.edit_steps import edit_steps
from msbench.scoring.side import Side

Key = tuple[int, int]  # (segment index, token index within it)
VIEWS = ("cp", "tcp")


def file_name(unit_id: str) -> str:
    """The alignment file of ``unit_id``: the id itself when it is a safe file name.

    >>> file_name("ami__tst00"), file_name("ami::trñ00")
    ('ami__tst00.json', 'ami__tr_00-d8328994.json')
    """
    if re.fullmatch(r"[A-Za-z0-9._-]+", unit_id) and not unit_id.startswith("."):
        return f"{unit_id}.json"
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", unit_id.replace("::", "__"))
    return f"{safe}-{hashlib.sha1(unit_id.encode('utf-8')).hexdigest()[:8]}.json"


def character_spans(segment: Segment, tokens: Sequence[str]) -> list[tuple[float, float]]:
    """meeteval's ``character_based`` pseudo-word times of ``tokens`` in ``segment``.

    >>> character_spans(Segment("s", 0.0, 3.0, "A", "ab c"), ["ab", "c"])
    [(0.0, 2.0), (2.0, 3.0)]
    """
    from meeteval.wer.wer.time_constrained import character_based

    spans = character_based((segment.start_time, segment.end_time), list(tokens))
    return [(round(float(a), 6), round(float(b), 6)) for a, b in spans]


def _streams(segments: Sequence[Segment], tokens: Sequence[Sequence[str]]) -> dict[str, list[Key]]:
    """Each speaker's words in meeteval's order: segments by start (stable), tokens in order."""
    order = sorted(range(len(segments)), key=lambda k: segments[k].start_time)
    streams: dict[str, list[Key]] = {}
    for k in order:
        stream = streams.setdefault(segments[k].speaker, [])
        stream.extend((k, i) for i in range(len(tokens[k])))
    return streams


class _Words:
    """One side's words, in segment order, and each word's class per view."""

    def __init__(self, side: Side, name: str):
        self.index: dict[Key, int] = {}
        self.words: list[dict[str, Any]] = []
        for k, (segment, words) in enumerate(zip(side.segments, side.worded, strict=True)):
            for i, (word, (start, end)) in enumerate(
                zip(words, character_spans(segment, words), strict=True)
            ):
                self.index[(k, i)] = len(self.words)
                self.words.append(
                    {
                        "start": start,
                        "end": end,
                        "speaker": segment.speaker,
                        "word": word,
                        **{f"{v}_partner": None for v in VIEWS},
                        **{f"{v}_speaker_error": False for v in VIEWS},
                    }
                )
        self.missing = "deletion" if name == "reference" else "insertion"

    def token(self, key: Key) -> str:
        return str(self.words[self.index[key]]["word"])

    def mark(self, view: str, key: Key, kind: str, partner: int | None = None) -> None:
        word = self.words[self.index[key]]
        word[view], word[f"{view}_partner"] = kind, partner


def _mark_steps(
    view: str, ref: _Words, hyp: _Words, steps: Sequence[tuple[Key | None, Key | None]]
) -> None:
    for a, b in steps:
        if a is not None and b is not None:
            kind = "correct" if ref.token(a) == hyp.token(b) else "substitution"
            ref.mark(view, a, kind, hyp.index[b])
            hyp.mark(view, b, kind, ref.index[a])
        elif a is not None:
            ref.mark(view, a, "deletion")
        elif b is not None:
            hyp.mark(view, b, "insertion")


def _pairs(assignment: Sequence[tuple[str | None, str | None]]) -> list[tuple[str, str]]:
    return [(r, h) for r, h in assignment if r is not None and h is not None]


def _cp_steps(ref: _Words, hyp: _Words, ref_stream: list[Key], hyp_stream: list[Key]) -> list[Any]:
    steps = edit_steps([ref.token(k) for k in ref_stream], [hyp.token(k) for k in hyp_stream])
    return [
        (None if a is None else ref_stream[a], None if b is None else hyp_stream[b])
        for a, b in steps
    ]


def _tcp_steps(
    reference: Side, hypothesis: Side, speakers: tuple[str, str], collar: float
) -> list[Any]:
    """meeteval's time-constrained alignment of one speaker pair, as (ref key, hyp key) steps."""
    (ref, ref_ids), (hyp, hyp_ids) = (
        reference.of_speaker(speakers[0]),
        hypothesis.of_speaker(speakers[1]),
    )
    return _keyed(align_words(ref, hyp, collar), ref_ids, hyp_ids)


def _keyed(pairs: Sequence[Pair], ref_ids: Sequence[int], hyp_ids: Sequence[int]) -> list[Any]:
    """Alignment pairs as (segment, token) keys: each side's words come in order, so the n-th
    word met of a segment is its n-th token."""
    seen: dict[tuple[str, int], int] = {}

    def key(side: str, ids: Sequence[int], segment: int) -> Key:
        k = ids[segment]
        position = seen.get((side, k), 0)
        seen[(side, k)] = position + 1
        return (k, position)

    return [
        (
            None if p.ref is None else key("ref", ref_ids, p.ref.segment),
            None if p.hyp is None else key("hyp", hyp_ids, p.hyp.segment),
        )
        for p in pairs
    ]


def word_view(
    reference: Side,
    hypothesis: Side,
    assignments: Mapping[str, Sequence[tuple[str | None, str | None]]],
    expected: Mapping[str, Any],
    agnostic: Sequence[Pair],
    tcp_collar: float,
    scored: Mapping[str, Mapping[tuple[str, str], Sequence[Any]]] | None = None,
) -> dict[str, Any]:
    """The word view of one unit (module docstring); ``assignments``: the cpWER and tcpWER
    speaker pairs as scored; ``expected``: their WordErrors (the view says when its counts
    differ); ``agnostic``: the speaker-agnostic alignment (all reference and hypothesis words);
    ``scored``: per view, each pair's steps as scoring aligned them (keys: (segment, token));
    a view or pair not there is aligned here, as scoring would."""
    scored = scored or {}
    ref, hyp = _Words(reference, "reference"), _Words(hypothesis, "hypothesis")
    ref_streams = _streams(reference.segments, reference.worded)
    hyp_streams = _streams(hypothesis.segments, hypothesis.worded)
    counts, problems = {}, []
    for view in VIEWS:
        for side, streams in ((ref, ref_streams), (hyp, hyp_streams)):
            for stream in streams.values():
                for key in stream:
                    side.mark(view, key, side.missing)
        for r, h in _pairs(assignments[view]):
            if (r, h) in scored.get(view, {}):
                steps = list(scored[view][(r, h)])
            elif view == "cp":
                steps = _cp_steps(ref, hyp, ref_streams.get(r, []), hyp_streams.get(h, []))
            else:
                steps = _tcp_steps(reference, hypothesis, (r, h), tcp_collar)
            _mark_steps(view, ref, hyp, steps)
        counts[view] = _counts(view, ref, hyp)
        wanted = expected[view]
        found = (
            counts[view]["substitutions"],
            counts[view]["insertions"],
            counts[view]["deletions"],
        )
        if found != (wanted.substitutions, wanted.insertions, wanted.deletions):
            problems.append(
                f"{view}: the words' classes count S/I/D {found}, the scores "
                f"{(wanted.substitutions, wanted.insertions, wanted.deletions)}"
            )
    _speaker_errors(ref, hyp, agnostic, reference, hypothesis)
    return {
        "mapping": {view: {h: r for r, h in _pairs(assignments[view])} for view in VIEWS},
        "counts": counts,
        "reference": ref.words,
        "hypothesis": hyp.words,
        "problem": "; ".join(problems) or None,
    }


def _counts(view: str, ref: _Words, hyp: _Words) -> dict[str, int]:
    return {
        "substitutions": sum(w[view] == "substitution" for w in ref.words),
        "insertions": sum(w[view] == "insertion" for w in hyp.words),
        "deletions": sum(w[view] == "deletion" for w in ref.words),
        "length": len(ref.words),
    }


def _speaker_errors(
    ref: _Words,
    hyp: _Words,
    agnostic: Sequence[Pair],
    reference: Side,
    hypothesis: Side,
) -> None:
    """Flag the words wrong in a view but correct in the speaker-agnostic alignment."""
    all_ref, all_hyp = list(range(len(reference.segments))), list(range(len(hypothesis.segments)))
    for a, b in _keyed(agnostic, all_ref, all_hyp):
        if a is None or b is None or ref.token(a) != hyp.token(b):
            continue
        for side, key in ((ref, a), (hyp, b)):
            word = side.words[side.index[key]]
            for view in VIEWS:
                word[f"{view}_speaker_error"] = word[view] != "correct"


def view_writer(folder: Path, scoring: Mapping[str, Any]) -> Callable[[Any, dict[str, Any]], None]:
    """A callback writing each scored unit's word view to ``folder/<unit>.json`` (one line)."""
    from msbench.textio import write_atomic

    def write_view(unit: Any, view: dict[str, Any]) -> None:
        header = {
            "unit_id": unit.unit_id,
            "recording_id": unit.recording_id,
            "start": unit.start,
            "end": unit.end,
            "tokenizer": scoring["tokenizer"],
            "tcp_collar": scoring["tcp_collar"],
        }
        text = json.dumps({**header, **view}, ensure_ascii=False, separators=(",", ":"))
        write_atomic(folder / file_name(unit.unit_id), text + "\n")

    return write_view


def session_view_writer(
    folder: Path, tokenizer: str, tcp_collar: float
) -> Callable[[str, dict[str, Any]], None]:
    """A callback writing each scored session's word view to ``folder/<session>.json``
    (``msbench score --word-view``): the same keys as a unit's, ``session`` for the unit's."""
    from msbench.textio import write_atomic

    folder.mkdir(parents=True, exist_ok=True)

    def write_view(session: str, view: dict[str, Any]) -> None:
        header = {"session": session, "tokenizer": tokenizer, "tcp_collar": tcp_collar}
        text = json.dumps({**header, **view}, ensure_ascii=False, separators=(",", ":"))
        write_atomic(folder / file_name(session), text + "\n")

    return write_view
