"""Shared building blocks of the readers: per-session collection with precise problem reports,
start order, comment lines, labels as one field, session names from file names."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msbench.records import Segment, SessionAnnotation

#: Speaker labels that mean "no speaker" in real files (RTTM writes ``<NA>``).
EMPTY_SPEAKER_LABELS = frozenset({"", "<NA>", "<na>", "NA"})


@dataclass
class SessionCollector:
    """Collects segments per session from one annotation file, validating each one.

    A segment whose end is before its start, whose times are not finite or
    negative, or whose speaker label is empty becomes a *problem* of its
    session (with its location); the session is then rejected downstream, the
    other sessions of the file are unaffected. A zero-length segment holds no
    speech but may hold words: it is kept among the segments, with a note in
    ``zero_length`` (scoring keeps its words for the WER family, as meeteval
    does, and gives it no duration for DER; ingest drops it with that note, or
    rejects the session for it when ``ingest.strict_segments`` is set).

    **Entries of no session.** A line or entry that names no session (a bare
    ``SPEAKER`` line, a SegLST entry without ``session_id``, a lhotse line
    that is not JSON) cannot reject a session it does not name: it is skipped
    with :meth:`skip`, and the message is a note of every session of the file,
    so the other sessions go on and the user sees what was left out.

    **JSON values** (:meth:`add` takes them as read): a ``null`` or boolean
    speaker is an empty label (a problem of the session, never the speaker
    ``"None"``); words that are a list of strings are joined with spaces (a
    note says so); any other non-string words are a problem.

    **Order.** A session's segments are sorted by start time alone, stably:
    among equal start times the file's order is kept (meeteval's rule), never
    an order by speaker or words.
    """

    file: str
    segments: dict[str, list[Segment]] = field(default_factory=lambda: defaultdict(list))
    problems: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    notes: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    zero_length: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    durations: dict[str, float] = field(default_factory=dict)
    audio_paths: dict[str, str] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)

    def touch(self, session: str) -> None:
        if session not in self.segments:
            self.order.append(session)
            self.segments[session]  # noqa: B018 - creates the empty list

    def add(
        self,
        session: str,
        speaker: object,
        start: float,
        end: float,
        where: str,
        words: object = None,
    ) -> None:
        self.touch(session)
        origin = f"{self.file}:{where}"
        text, problem = words_text(words)
        if problem:
            self.problems[session].append(f"{origin}: {problem}")
            return
        if isinstance(words, list):
            self.notes[session].append(f"{origin}: words given as a list, joined with spaces")
        # kept as written: msbench.labels normalises labels once, saying what it merged
        label = "" if speaker is None or isinstance(speaker, bool) else str(speaker)
        if label.strip() in EMPTY_SPEAKER_LABELS:
            self.problems[session].append(
                f"{origin}: empty speaker label {speaker!r} (give every segment a speaker)"
            )
            return
        if not (math.isfinite(start) and math.isfinite(end)):
            self.problems[session].append(f"{origin}: non-finite time {start!r}..{end!r}")
            return
        if end == start and start >= 0:
            self.zero_length[session].append(
                f"{origin}: zero-length segment at {start:.3f} s of speaker {label!r}"
            )
        elif end < start:
            self.problems[session].append(
                f"{origin}: negative-length segment {start:.3f}..{end:.3f} s of speaker {label!r}"
                " (fix or delete this segment)"
            )
            return
        if start < 0:
            self.problems[session].append(f"{origin}: segment starts before 0 s ({start:.3f})")
            return
        self.segments[session].append(Segment(session, start, end, label, text, origin))

    def problem(self, session: str, message: str) -> None:
        self.touch(session)
        self.problems[session].append(message)

    def note(self, session: str, message: str) -> None:
        self.touch(session)
        self.notes[session].append(message)

    def skip(self, message: str) -> None:
        """A line or entry of no session, left out: a note of every session of the file."""
        self.skipped.append(f"{message}: skipped (it names no session)")

    def sessions(self) -> list[SessionAnnotation]:
        return [
            SessionAnnotation(
                session_id=session,
                file=self.file,
                segments=in_start_order(self.segments[session]),
                duration=self.durations.get(session),
                audio_path=self.audio_paths.get(session),
                problems=tuple(self.problems.get(session, ())),
                notes=(*self.skipped, *self.notes.get(session, ())),
                zero_length=tuple(self.zero_length.get(session, ())),
            )
            for session in self.order
        ]


def words_text(words: object) -> tuple[str | None, str]:
    """``(words as text, problem)`` of a words value read from a file.

    >>> words_text("a b"), words_text(["a", "b"]), words_text(None)
    (('a b', ''), ('a b', ''), (None, ''))
    >>> words_text(3)[1]
    'words are a int, expected text'
    """
    if words is None or isinstance(words, str):
        return words, ""
    if isinstance(words, list) and all(isinstance(w, str) for w in words):
        return " ".join(words), ""
    return None, f"words are a {type(words).__name__}, expected text"


def in_start_order(segments: list[Segment]) -> tuple[Segment, ...]:
    """Segments sorted by start time alone; equal starts keep their order (a stable sort).

    >>> [s.words for s in in_start_order([Segment("s", 1.0, 2.0, "B", "b"),
    ...                                   Segment("s", 0.0, 1.0, "Z", "z"),
    ...                                   Segment("s", 1.0, 1.5, "A", "a")])]
    ['z', 'b', 'a']
    """
    return tuple(sorted(segments, key=lambda segment: segment.start_time))


def json_entries(
    path: str | Path,
    encoding: str | None,
    collector: SessionCollector,
    session: str,
    layout: str,
) -> Iterator[tuple[int, dict[str, Any]]]:
    """The objects of a JSON list file, numbered; anything else in the list is a problem."""
    from msbench.errors import InputError
    from msbench.textio import read_json

    entries = read_json(path, encoding)
    if not isinstance(entries, list):
        raise InputError(path, f"expected a JSON list of utterances ({layout} layout)")
    for index, entry in enumerate(entries):
        if isinstance(entry, dict):
            yield index, entry
        else:
            collector.problem(
                session,
                f"{path}:entry {index}: a {type(entry).__name__}, expected an utterance object",
            )


def session_from_filename(path: str | Path) -> str:
    """``.../M_R003S01C01.TextGrid`` -> ``M_R003S01C01`` (CHiME: ``S02.json`` -> ``S02``).

    >>> session_from_filename("a/S02.json.gz"), session_from_filename("s3.rttm.gz")
    ('S02', 's3')
    """
    name = Path(path).name
    if name.endswith(".gz"):  # s3.rttm.gz, S02.json.gz, cuts.jsonl.gz
        name = name[: -len(".gz")]
    return Path(name).stem


def is_comment(line: str) -> bool:
    """A blank line or a comment (``;;`` as NIST writes them, or ``#``).

    >>> is_comment(";; a note"), is_comment("  "), is_comment("SPEAKER r 1 0 1")
    (True, True, False)
    """
    stripped = line.strip()
    return not stripped or stripped.startswith((";;", "#"))


def one_field(text: object) -> str:
    """A speaker or session label as one whitespace-free field (the line formats split at it).

    >>> one_field(" Speaker A ")
    'Speaker_A'
    """
    return re.sub(r"\s+", "_", str(text).strip())
