"""UEM files: each session's scored region, the union of its spans.

A UEM line is ``<file> <chnl> <start> <end>`` (seconds; NIST's
un-partitioned evaluation map as md-eval, dscore and meeteval read it). A
session may have several lines: md-eval's own ``sd_test1.uem`` gives one
file three spans (10-15, 20-24, 26-30 s), and the session's scored region
is their **union**, never the last line read.

Rules, each with the file and line in its message:

- spans are half-open ``[start, end)``; touching spans join (the union is
  the same set);
- two spans of one session that overlap (a positive-length intersection),
  a span whose end is before its start, a time that is not a finite number,
  or a line with fewer than four fields is a *problem of that session*: the
  session is rejected (ingest) or the scoring stops (``msbench score``);
  the other sessions are unaffected;
- a zero-length span scores nothing: it is dropped with a note;
- a session that two UEM files of one source give different spans is a
  problem of that session (both files named); the same spans twice are one.

The length of a session's region, :func:`scored_length`, is summed in
integer microseconds, exactly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from msbench.errors import InputError
from msbench.records import ScoredSpans
from msbench.textio import read_text, split_lines
from msbench.timeline import parse_seconds, to_micros, to_seconds


@dataclass
class UemTable:
    """Every session's scored spans, and what could not be read (per session, per file)."""

    spans: dict[str, ScoredSpans] = field(default_factory=dict)
    problems: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    notes: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    files: dict[str, str] = field(default_factory=dict)  # session -> the file its spans came from
    unreadable: list[InputError] = field(default_factory=list)  # files that could not be read

    def strict(self) -> dict[str, ScoredSpans]:
        """The spans, or InputError for the first problem (``msbench score`` takes no partial UEM)."""
        for error in self.unreadable:
            raise error
        for session, problems in sorted(self.problems.items()):
            if problems:
                raise InputError(self.files.get(session, "UEM"), problems[0])
        return self.spans

    def add_file(self, other: UemTable) -> None:
        """Join another file's table: a session given different spans by both is a problem."""
        self.unreadable += other.unreadable
        for session, problems in other.problems.items():
            self.problems[session] += problems
            self.files.setdefault(session, other.files.get(session, ""))
        for session, notes in other.notes.items():
            self.notes[session] += notes
        for session, spans in other.spans.items():
            known = self.spans.get(session)
            if known is None:
                self.spans[session], self.files[session] = spans, other.files[session]
            elif known != spans:
                self.problems[session].append(
                    f"UEM spans of session {session!r} differ between {self.files[session]} "
                    f"({describe_spans(known)}) and {other.files[session]} "
                    f"({describe_spans(spans)}): keep one UEM line set per session"
                )


def describe_spans(spans: Sequence[tuple[float, float]]) -> str:
    """``[(10.0, 15.0), (20.0, 24.0)]`` -> ``'10.000..15.000, 20.000..24.000 s'``.

    >>> describe_spans([(10.0, 15.0), (20.0, 24.0)])
    '10.000..15.000, 20.000..24.000 s'
    """
    return ", ".join(f"{a:.3f}..{b:.3f}" for a, b in spans) + " s"


def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith((";", "#"))  # dscore writes "; a comment"


def read_uem(path: str | Path, encoding: str | None = None) -> UemTable:
    """One UEM file: the union of each session's spans (see the module docstring)."""
    table = UemTable()
    try:
        text = read_text(path, encoding)
    except InputError as error:
        table.unreadable.append(error)
        return table
    raw: dict[str, list[tuple[float, float, int]]] = defaultdict(list)
    for number, line in enumerate(split_lines(text), start=1):
        if _is_comment(line):
            continue
        fields = line.split()
        session = fields[0]
        table.files.setdefault(session, str(path))
        where = f"{path}:line {number}"
        if len(fields) < 4:
            table.problems[session].append(
                f"{where}: UEM line has {len(fields)} field(s), expected 4 "
                "(<file> <chnl> <start> <end>)"
            )
            continue
        try:
            start, end = parse_seconds(fields[2]), parse_seconds(fields[3])
        except ValueError:
            table.problems[session].append(
                f"{where}: UEM start/end {fields[2]!r} {fields[3]!r} are not finite numbers"
            )
            continue
        if end < start:
            table.problems[session].append(
                f"{where}: inverted UEM span {start:.3f}..{end:.3f} s (end before start)"
            )
        elif end == start:
            table.notes[session].append(f"{where}: zero-length UEM span at {start:.3f} s ignored")
        else:
            raw[session].append((start, end, number))
    for session, spans in raw.items():
        table.spans[session] = _union(spans, str(path), table.problems[session])
    return table


def _union(spans: list[tuple[float, float, int]], path: str, problems: list[str]) -> ScoredSpans:
    """Sorted spans joined where they touch; an overlap is a problem naming both lines."""
    joined: list[tuple[float, float, int]] = []
    for start, end, number in sorted(spans):
        if joined and start < joined[-1][1]:
            problems.append(
                f"{path}:line {number}: UEM span {start:.3f}..{end:.3f} s overlaps the span of "
                f"line {joined[-1][2]} (..{joined[-1][1]:.3f} s): give each scored region once"
            )
        elif joined and start == joined[-1][1]:
            joined[-1] = (joined[-1][0], end, joined[-1][2])
        else:
            joined.append((start, end, number))
    return tuple((start, end) for start, end, _ in joined)


def read_uem_files(paths: Iterable[str | Path], encoding: str | None = None) -> UemTable:
    """Every UEM file of a source, joined (see :meth:`UemTable.add_file`)."""
    table = UemTable()
    for path in paths:
        table.add_file(read_uem(path, encoding))
    return table


def scored_length(spans: Iterable[tuple[float, float]]) -> float:
    """Total length of the spans in seconds, summed exactly in integer microseconds.

    >>> scored_length([(10.0, 15.0), (20.0, 24.0), (26.0, 30.0)])
    13.0
    >>> scored_length([(1.1, 2.2), (3.3, 4.4)]), (2.2 - 1.1) + (4.4 - 3.3)
    (2.2, 2.2000000000000006)
    """
    return to_seconds(sum(to_micros(end) - to_micros(start) for start, end in spans))


def clip_spans(spans: Sequence[tuple[float, float]], end: float) -> ScoredSpans:
    """The spans inside ``[0, end)`` (the audio): cut at its end, empty ones removed.

    >>> clip_spans([(0.0, 5.0), (8.0, 12.0), (20.0, 30.0)], 10.0)
    ((0.0, 5.0), (8.0, 10.0))
    """
    kept = ((max(0.0, a), min(b, end)) for a, b in spans)
    return tuple((a, b) for a, b in kept if b > a)
