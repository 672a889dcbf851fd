"""What the JSON readers of systems and services share: times as these tools write them, speaker
fields, consecutive words of one speaker as one turn, and one error wrapping that names the
format, the entry and what to do.

Each service's reader is a module of :mod:`msbench.io` (``vibevoice``, ``whisperx``,
``assemblyai``, ``deepgram``, ``aws_transcribe``, ``speechmatics``, ``google_stt``, ...) with
``looks(data)`` (does a parsed document have its shape), ``read(data, session, origin)`` and
``LOOKS_FOR`` (the keys it looks for, listed when a JSON document matches no format).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

from msbench.errors import InputError
from msbench.io.cutoff import json_problem
from msbench.io.sample import NOT_JSON, Sample
from msbench.records import Segment
from msbench.timeline import parse_seconds

Word = tuple[float, float, str, str]  # start, end, speaker, word
JsonReader = Callable[[Any, str, str], list[Segment]]

#: The latest time msbench reads: 10^7 s (about 116 days; the longest recordings of meeting
#: corpora are hours). A time beyond it is a unit slip (microseconds or ticks read as seconds) or
#: garbage, and would overflow the DER timeline's integer microseconds; it is named, never read.
TIME_BOUND_S = 10_000_000


def checked_time(value: float, raw: Any, where: str = "") -> float:
    """``value`` (read from ``raw``) when it is a finite time within :data:`TIME_BOUND_S`; a
    ValueError naming ``where`` and the raw value otherwise.

    >>> checked_time(1.5, "1.5")
    1.5
    >>> checked_time(float("inf"), "Infinity", "word 3 start")
    Traceback (most recent call last):
    ...
    ValueError: word 3 start: 'Infinity' is not a finite time
    """
    said = f"{where}: " if where else ""
    if not math.isfinite(value):
        raise ValueError(f"{said}{raw!r} is not a finite time")
    if abs(value) > TIME_BOUND_S:
        raise ValueError(
            f"{said}{raw!r} s is beyond msbench's bound of 1e7 s (116 days): a time in another "
            "unit (ms, ticks) or a broken value"
        )
    return value


def seconds(value: Any, where: str = "") -> float:
    """A time as services write it, exactly: ``1.5``, ``"1.5"``, ``"1.500s"`` (Google's
    duration strings), ``"00:00:01.5"``, or protobuf's ``{"seconds": "1", "nanos": 500000000}``
    (Google's Node.js client; a field left out is 0, as protobuf omits zeros).

    >>> seconds("1.500s"), seconds({"seconds": "1", "nanos": 500000000}), seconds({"nanos": 7e7})
    (1.5, 1.5, 0.07)
    """
    if value is None:
        raise ValueError(f"{where + ': ' if where else ''}the time is null")
    return checked_time(_seconds(value), value, where)


def _seconds(value: Any) -> float:
    if isinstance(value, dict):
        unknown = set(value) - {"seconds", "nanos"}
        if unknown:
            raise ValueError(f"{value!r} is not a time (unknown fields {sorted(unknown)})")
        whole, nanos = value.get("seconds", 0), value.get("nanos", 0)
        if isinstance(nanos, float) and nanos != int(nanos):
            raise ValueError(f"{value!r}: nanos {nanos!r} is not an integer")
        return float(Decimal(str(parse_seconds(whole))) + Decimal(int(nanos)) / 10**9)
    if isinstance(value, str):
        value = value.strip().removesuffix("s")
    return parse_seconds(value)


def label(value: Any) -> str:
    """A speaker field as a label; null is ``""`` (no speaker, named by the structural check),
    never the text ``"None"``: ``label(None), label(0) == "", "0"``."""
    return "" if value is None else str(value)


def word_text(value: Any, where: str) -> str:
    """A word or text field as text; null is refused naming the entry, never the word ``"None"``.

    >>> word_text("know", "word 2"), word_text(7, "word 3")
    ('know', '7')
    >>> word_text(None, "word 4")
    Traceback (most recent call last):
    ...
    ValueError: word 4: the word is null (no text)
    """
    if value is None:
        raise ValueError(f"{where}: the word is null (no text)")
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"{where}: the word {value!r} is not text")
    return str(value)


def field_of(entry: Any, key: str, where: str) -> Any:
    """``entry[key]``; a missing key or an entry that is no object names the entry."""
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: {entry!r} is not an object")
    if key not in entry:
        raise ValueError(f"{where}: no key {key!r} (it has {', '.join(map(repr, entry))})")
    return entry[key]


def word_entry(entry: Any, keys: tuple[str, str, str], speaker: str, where: str) -> Word:
    """One word of a word-level output, checked before it is joined into a turn: its start and
    end keys (finite, not negative, within the bound, start not after end) and its text key
    (not null), every problem naming ``where`` (``word 12``) and the value."""
    start_key, end_key, text_key = keys
    start = seconds(field_of(entry, start_key, where), f"{where} {start_key}")
    end = seconds(field_of(entry, end_key, where), f"{where} {end_key}")
    if start < 0:
        raise ValueError(f"{where}: starts before 0 ({start_key} {entry[start_key]!r})")
    if end < start:
        raise ValueError(
            f"{where}: ends before it starts ({start_key} {entry[start_key]!r}, "
            f"{end_key} {entry[end_key]!r})"
        )
    return start, end, speaker, word_text(field_of(entry, text_key, where), where)


def millis(value: Any, where: str) -> float:
    """Integer milliseconds as seconds, exactly; anything else (float seconds) is an error, never
    truncated (``int(1.5)`` put every utterance in the first 30 ms); NaN, Infinity and times
    beyond :data:`TIME_BOUND_S` are named."""
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{where}: {value!r} is not a finite time")
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise ValueError(f"{where}: {value!r} is not integer milliseconds")
    return checked_time(float(Decimal(int(value)) / 1000), value, where)


def turns_of_words(words: Iterable[Word], session: str, origin: str) -> list[Segment]:
    """Consecutive words of one speaker as one segment (first start to last end)."""
    segments: list[Segment] = []
    run: list[Word] = []
    for word in [*words, (0.0, 0.0, "\0", "")]:
        if run and word[2] != run[-1][2]:
            text = " ".join(w[3] for w in run if w[3])
            segments.append(Segment(session, run[0][0], run[-1][1], run[0][2], text, origin))
            run = []
        run.append(word)
    return segments


def results_of(data: Any, kind: type) -> bool:
    """``data["results"]`` is a non-empty ``kind`` (the services' common envelope)."""
    return (
        isinstance(data, dict) and isinstance(data.get("results"), kind) and bool(data["results"])
    )


def parsed(sample: Sample, text: str | None = None) -> Any:
    """The sample's JSON document (parsed once for detection and reading alike), or that of
    ``text`` (the JSON inside a wrapper); a document cut off at its end is ``incomplete``,
    any other JSON error names its line."""
    if text is None and sample.data is not NOT_JSON:
        return sample.data
    text = sample.text if text is None else text
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise json_problem(sample.path, text, error) from error


def read_document(sample: Sample, name: str, reader: JsonReader) -> list[Segment]:
    """A JSON system output read by ``reader``; a missing key or a bad value is an error naming
    the format it was read as, and a document cut off at its end is ``incomplete``."""
    return read_parsed(sample, name, reader, parsed(sample))


def read_parsed(sample: Sample, name: str, read: JsonReader, data: Any) -> list[Segment]:
    """``read`` on an already parsed document, its errors worded as :func:`read_document`'s."""
    try:
        return read(data, sample.session, str(sample.path))
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        key = error.args[0] if isinstance(error, KeyError) and error.args else None
        if type(error) is ValueError:  # a value the reader checked: the entry is named
            raise InputError(
                sample.path,
                f"a bad value in this {name} output: {error}",
                fix="correct or regenerate that entry; msbench never guesses a time or a word",
            ) from error
        what = (
            f"{type(error).__name__} {error}"
            if key is None
            else key
            if isinstance(key, str) and " " in key  # a reader's own sentence
            else f"no key {key!r}"
        )
        raise InputError(
            sample.path,
            f"not a {name} output: {what}",
            fix=f"check the file, or pass another --hyp-format (it was read as {name})",
        ) from error


def json_detector(looks: Callable[[Any], bool]) -> Callable[[Sample], bool]:
    """A detector from a predicate on the parsed document."""

    def detect(sample: Sample) -> bool:
        return looks(sample.data)

    return detect


def json_reader(name: str, reader: JsonReader) -> Callable[[Sample], list[Segment]]:
    """A sample reader from a reader of parsed documents."""

    def read(sample: Sample) -> list[Segment]:
        return read_document(sample, name, reader)

    return read
