"""Scoring a reference file's segments against a hypothesis's: sessions paired, each scored
(:func:`msbench.scoring.pair.score_session`), summed into a :class:`ScoreReport`.

Sessions are matched by id; when each side holds exactly one session under different ids, they
are paired and a note says so. ``sessions`` (``msbench score --sessions``) keeps the sessions
whose id a regular expression matches, as meeteval's ``--regex`` does, so one unit is scored
against a whole reference file without the others counting as deletions.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TextIO

from msbench.errors import ConfigError
from msbench.records import Segment
from msbench.scoring.der import DEFAULT_DER_CONVENTION
from msbench.scoring.pair import Scores, add_scores, score_session
from msbench.scoring.report import ScoreReport
from msbench.scoring.tokenizer import DEFAULT_TOKENIZER
from msbench.scoring.wer import TCP_COLLAR


def _pair_sessions(
    ref: Mapping[str, list[Segment]], hyp: Mapping[str, list[Segment]]
) -> tuple[dict[str, tuple[list[Segment], list[Segment]]], list[str]]:
    """Sessions matched by id (and a single session each side, whatever its ids), with notes."""
    if len(ref) == 1 and len(hyp) == 1 and set(ref) != set(hyp):
        (name, r), (other, h) = next(iter(ref.items())), next(iter(hyp.items()))
        note = f"the only reference session {name!r} is paired with the only hypothesis session {other!r}"
        return {name: (r, h)}, [note]
    notes = [
        f"session {name!r}: only in the {side} (scored as all {kind})"
        for side, kind, names in (
            ("reference", "deletions and missed speech", set(ref) - set(hyp)),
            ("hypothesis", "insertions and false alarms", set(hyp) - set(ref)),
        )
        for name in sorted(names)
    ]
    paired = {name: (ref.get(name, []), hyp.get(name, [])) for name in sorted(set(ref) | set(hyp))}
    return paired, notes


FAR_SECONDS = 60.0


def far_segments(reference: Sequence[Segment], hypothesis: Sequence[Segment]) -> list[str]:
    """A note for hypothesis segments that start or end over ``FAR_SECONDS`` after the
    reference ends (a segment from 0 to 36,000 s is as far as one that starts there).

    Such times usually mean other units (milliseconds, samples) or another
    recording; they are scored as they are (false alarm, insertions), and said.

    >>> far_segments([Segment("s", 0.0, 4.0, "A", "a")], [Segment("s", 1e12, 1e12 + 2, "A", "a")])
    ["1 hypothesis segment(s) reach more than 60 s past the reference's last end (4.000 s), the farthest to 1000000000002.000 s: check that the times are seconds of the same recording (scored as they are: false alarm and insertions)"]
    >>> len(far_segments([Segment("s", 0.0, 4.0, "A", "a")], [Segment("s", 0.0, 36000.0, "A", "a")]))
    1
    """
    ends: dict[str, float] = {}
    for segment in reference:
        ends[segment.session_id] = max(ends.get(segment.session_id, 0.0), segment.end_time)
    far = [
        s
        for s in hypothesis
        if s.session_id in ends and max(s.start_time, s.end_time) > ends[s.session_id] + FAR_SECONDS
    ]
    if not far:
        return []
    last = max(far, key=lambda s: max(s.start_time, s.end_time))
    return [
        f"{len(far)} hypothesis segment(s) reach more than {FAR_SECONDS:.0f} s past the "
        f"reference's last end ({ends[last.session_id]:.3f} s), the farthest to "
        f"{max(last.start_time, last.end_time):.3f} s: check that the times are seconds of the "
        "same recording (scored as they are: false alarm and insertions)"
    ]


def has_words(segments: Sequence[Segment]) -> bool:
    """A side has words unless it was read from speaker times alone (RTTM: every ``words`` None)."""
    return not segments or any(s.words is not None for s in segments)


def _runaway_note(
    name: str,
    hypothesis: Sequence[Segment],
    spans: Sequence[tuple[float, float]],
    tokenizer: str,
    notes: list[str],
) -> bool:
    """True (and a note) when a session's hypothesis is a runaway output
    (:func:`msbench.scoring.checks.runaway`): DER is scored, the WER family's alignments not."""
    from msbench.scoring.checks import runaway
    from msbench.scoring.tokenizer import tokenize

    tokens = sum(len(tokenize(s.words, tokenizer)) for s in hypothesis)
    why = runaway(tokens, sum(b - a for a, b in spans))
    if why:
        notes.append(f"session {name!r}: {why}: DER only, no WER family")
    return why is not None


def score_pair(
    reference: Sequence[Segment],
    hypothesis: Sequence[Segment],
    spans: Mapping[str, Sequence[tuple[float, float]]] | None = None,
    collar: float = 0.25,
    tcp_collar: float = TCP_COLLAR,
    tokenizer: str = DEFAULT_TOKENIZER,
    tolerances: Mapping[str, float] | None = None,
    with_orc: bool = True,
    der_convention: str = DEFAULT_DER_CONVENTION,
    progress: TextIO | None = None,
    sessions: str | None = None,
    on_word_view: Callable[[str, dict[str, Any]], None] | None = None,
    threads: int = 1,
) -> ScoreReport:
    """Every metric of two segment lists, per session and in sum (the module docstring of
    :mod:`msbench.scoring.pair` names the JSON's keys).

    ``spans``: each session's scored spans (a UEM); without them every session is scored on
    ``[0, last end of either side)``. ``with_orc``: also the (unconstrained) ORC-WER, where it
    fits. ``progress``: a line per session and per step of a long session goes there.
    ``sessions``: a regular expression; only the sessions whose id it matches in full are
    scored (meeteval's ``--regex``), the others are left out with a note. ``on_word_view``:
    called with each session's name and word view as it is made (it is not kept);
    ``threads``: for a large session's independent steps (:mod:`msbench.scoring.threads`).
    """
    from msbench.io.read import by_session

    check_seconds({"collar": collar, "tcp_collar": tcp_collar, **(tolerances or {})})
    notes: list[str] = []
    if sessions is not None:
        reference, hypothesis, kept = _matching(reference, hypothesis, sessions)
        notes.append(kept)
    with_words = has_words(reference) and has_words(hypothesis)
    notes += _side_notes(reference, hypothesis, with_words)
    paired, pairing_notes = _pair_sessions(
        by_session(list(reference)), by_session(list(hypothesis))
    )
    notes += pairing_notes + far_segments(reference, hypothesis)
    scored: list[tuple[str, Scores]] = []
    for k, (name, (ref, hyp)) in enumerate(paired.items(), start=1):
        say(progress, f"scoring session {name!r} ({k} of {len(paired)}): {len(ref)} reference "
                      f"and {len(hyp)} hypothesis segments")  # fmt: skip
        session_spans = _session_spans(name, ref, hyp, spans, notes)
        words = with_words and not _runaway_note(name, hyp, session_spans, tokenizer, notes)
        scores = score_session(ref, hyp, session_spans, name, collar, tcp_collar, tokenizer,
                               words, tolerances, with_orc, der_convention,
                               with_word_view=on_word_view is not None,
                               progress=progress, threads=threads)  # fmt: skip
        if on_word_view is not None and scores.word_view is not None:
            on_word_view(name, scores.word_view)
            scores = replace(scores, word_view=None)
        scored.append((name, scores))
        notes += [f"session {name!r}: {note}" for note in scores.notes]
    total = add_scores([scores for _, scores in scored])
    return ScoreReport(total, tuple(scored), tokenizer, tuple(notes), tcp_collar)


def _session_spans(
    name: str,
    ref: Sequence[Segment],
    hyp: Sequence[Segment],
    spans: Mapping[str, Sequence[tuple[float, float]]] | None,
    notes: list[str],
) -> Sequence[tuple[float, float]]:
    """A session's scored spans: its UEM's, else ``[0, last end of either side]`` (a note
    where a UEM was given but does not name it)."""
    found = (spans or {}).get(name)
    if found is not None:
        return found
    last = max((s.end_time for s in [*ref, *hyp]), default=0.0)
    if spans is not None:
        notes.append(f"session {name!r} is not in the UEM: scored on 0..{last:.3f} s")
    return ((0.0, last),)


def _side_notes(
    reference: Sequence[Segment], hypothesis: Sequence[Segment], with_words: bool
) -> list[str]:
    """What a side without segments or without words means for the scores."""
    notes = []
    for side, segments, what in (
        ("reference", reference, "DER and the WER family are undefined (nothing to score)"),
        ("hypothesis", hypothesis, "every reference word is a deletion, all speech missed"),
    ):
        if not segments:
            notes.append(f"the {side} holds no segment: {what}")
    if not with_words:
        side = "reference" if not has_words(reference) else "hypothesis"
        notes.append(f"the {side} holds speaker times only (no words): DER alone, no WER family")
    return notes


def _matching(
    reference: Sequence[Segment], hypothesis: Sequence[Segment], pattern: str
) -> tuple[list[Segment], list[Segment], str]:
    """The segments of the sessions whose id matches ``pattern`` in full, and a note.

    >>> ref = [Segment("ES2004a", 0, 1, "A", "x"), Segment("ES2004b", 0, 1, "A", "y")]
    >>> _matching(ref, [], "ES2004a")[2]
    "--sessions 'ES2004a': 1 of 2 sessions scored (left out: 'ES2004b')"
    """
    import re

    from msbench.errors import ConfigError

    try:
        wanted = re.compile(pattern)
    except re.error as error:
        raise ConfigError(f"--sessions {pattern!r} is not a regular expression: {error}") from error
    names = sorted({s.session_id for s in [*reference, *hypothesis]})
    kept = [n for n in names if wanted.fullmatch(n)]
    if not kept:
        raise ConfigError(
            f"--sessions {pattern!r} matches no session (sessions: {', '.join(names[:20])})"
        )
    left = [n for n in names if n not in kept]
    note = f"--sessions {pattern!r}: {len(kept)} of {len(names)} sessions scored"
    if left:
        note += f" (left out: {', '.join(map(repr, left[:10]))}{' ...' if len(left) > 10 else ''})"
    keep = set(kept)
    return (
        [s for s in reference if s.session_id in keep],
        [s for s in hypothesis if s.session_id in keep],
        note,
    )


def say(stream: TextIO | None, line: str) -> None:
    """One progress line (flushed), where a stream was given."""
    if stream is not None:
        print(line, file=stream, flush=True)


def check_seconds(values: Mapping[str, float]) -> None:
    """Refuse a negative, NaN or infinite collar or tolerance, naming it.

    >>> check_seconds({"collar": -1.0})
    Traceback (most recent call last):
    msbench.errors.ConfigError: collar -1.0: give a finite number of seconds, 0 or more
    """
    for name, value in values.items():
        if not math.isfinite(value) or value < 0:
            raise ConfigError(f"{name} {value}: give a finite number of seconds, 0 or more")
