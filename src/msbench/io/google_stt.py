"""Google Speech-to-Text's response JSON (diarization): words with ``startTime`` /
``startOffset``, ``endTime`` / ``endOffset`` and ``speakerTag`` / ``speakerLabel``. Times are
duration strings (``"1.400s"``, the REST API) or ``{"seconds": "1", "nanos": 400000000}``
objects (the Node.js client's protobuf form); snake_case spellings (``start_time``,
``speaker_tag``, Python's ``MessageToDict(preserving_proto_field_name=True)``) are read too.

With diarization the last result holds every word, tagged; without speaker tags, every
result's words in order (the last result alone then lost the others).
"""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, results_of, seconds, turns_of_words, word_text
from msbench.records import Segment

LOOKS_FOR = "an object with a list 'results' of {alternatives: [{words}]}"
START = ("startOffset", "startTime", "start_offset", "start_time")
END = ("endOffset", "endTime", "end_offset", "end_time")
SPEAKER = ("speakerLabel", "speakerTag", "speaker_label", "speaker_tag")


def looks(data: Any) -> bool:
    first = data["results"][0] if results_of(data, list) else {}
    return isinstance(first, dict) and "alternatives" in first and "type" not in first


def _first(word: dict[str, Any], keys: tuple[str, ...], default: Any = None) -> Any:
    """The first of ``keys`` that holds a value: an empty ``speakerLabel`` (the Node.js client
    fills every field, ``""`` where v1 gives a ``speakerTag``) is no value.

    >>> _first({"speakerLabel": "", "speakerTag": 2}, SPEAKER)
    2
    """
    return next((word[key] for key in keys if word.get(key) not in (None, "")), default)


def read(data: Any, session: str, origin: str) -> list[Segment]:
    results = [r for r in data["results"] if r.get("alternatives")]
    last = results[-1]["alternatives"][0].get("words", []) if results else []
    tagged = any(_first(w, SPEAKER) is not None for w in last)
    words = last if tagged else [w for r in results for w in r["alternatives"][0].get("words", [])]
    return turns_of_words(
        (
            (
                seconds(_first(w, START, "0s"), f"word {k} start"),
                seconds(_first(w, END, "0s"), f"word {k} end"),
                label(_first(w, SPEAKER)),
                word_text(w.get("word"), f"word {k}"),
            )
            for k, w in enumerate(words, start=1)
        ),
        session,
        origin,
    )
