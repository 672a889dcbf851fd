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


def seconds(value: Any) -> float:
    """A time as services write it, exactly: ``1.5``, ``"1.5"``, ``"1.500s"`` (Google's
    duration strings), ``"00:00:01.5"``, or protobuf's ``{"seconds": "1", "nanos": 500000000}``
    (Google's Node.js client; a field left out is 0, as protobuf omits zeros).

    >>> seconds("1.500s"), seconds({"seconds": "1", "nanos": 500000000}), seconds({"nanos": 7e7})
    (1.5, 1.5, 0.07)
    """
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


def millis(value: Any, where: str) -> float:
    """Integer milliseconds as seconds, exactly; anything else (float seconds) is an error, never
    truncated (``int(1.5)`` put every utterance in the first 30 ms)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise ValueError(f"{where}: {value!r} is not integer milliseconds")
    return float(Decimal(int(value)) / 1000)


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
