"""What a reader leaves out of a file without refusing it, said to the user: each reader calls
:func:`note` while it reads, and :func:`collected` gathers the notes of one file's reading
(``msbench score`` prints them beside what it read; ``msbench evaluate`` adds them to the
unit's notes). Nothing is dropped silently.

>>> with collected() as notes:
...     note("phrase 3: recognitionStatus 'Failure' with 2 words, left out")
>>> notes
["phrase 3: recognitionStatus 'Failure' with 2 words, left out"]
>>> note("outside any reading: not kept")
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_NOTES: ContextVar[list[str] | None] = ContextVar("msbench_reading_notes", default=None)


def note(message: str) -> None:
    """Say ``message`` about the file being read (kept by the innermost :func:`collected`)."""
    notes = _NOTES.get()
    if notes is not None:
        notes.append(message)


@contextmanager
def collected() -> Iterator[list[str]]:
    """The notes said while the block runs."""
    notes: list[str] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)
