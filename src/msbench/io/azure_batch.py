"""Microsoft Azure AI Speech batch transcription results (``diarizationEnabled: true``):
``recognizedPhrases`` of ``{"recognitionStatus", "channel", "speaker", "offsetInTicks",
"durationInTicks", "offset": "PT0.76S", "duration", "nBest": [{"lexical", "display", "words"}]}``.
Each recognised phrase is one turn of its ``speaker``, its words the best hypothesis' ``lexical``
form (the spoken words, as Microsoft's own WER scoring uses; ``display`` adds punctuation and
inverse text normalisation). Times are ticks of 100 ns, divided exactly; where only the
ISO 8601 durations are given (``PT1M2.5S``), those. A phrase whose ``recognitionStatus`` is not
``Success`` is left out; where it still holds words, they are counted in a note
(:mod:`msbench.io.reading_notes`), never dropped silently.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any

from msbench.io.json_outputs import checked_time, label, word_text
from msbench.io.reading_notes import note
from msbench.records import Segment

LOOKS_FOR = (
    "an object with a list 'recognizedPhrases' of {speaker, offsetInTicks, durationInTicks, nBest}"
)
ISO_DURATION = re.compile(r"^PT(?:(?P<h>\d+)H)?(?:(?P<m>\d+)M)?(?:(?P<s>\d+(?:\.\d+)?)S)?$")
TICKS_PER_SECOND = 10**7


def looks(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("recognizedPhrases"), list)


def iso_seconds(text: str) -> Decimal:
    """``PT1M2.5S`` -> 62.5, exactly.

    >>> iso_seconds("PT1M2.5S"), iso_seconds("PT0.76S"), iso_seconds("PT1H")
    (Decimal('62.5'), Decimal('0.76'), Decimal('3600'))
    """
    match = ISO_DURATION.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not an ISO 8601 duration (PT#H#M#S)")
    hours, minutes = int(match["h"] or 0), int(match["m"] or 0)
    return hours * 3600 + minutes * 60 + Decimal(match["s"] or "0")


def _span(phrase: dict[str, Any], where: str) -> tuple[float, float]:
    """The phrase's start and end, each checked as read (whole ticks, finite, in bound)."""
    if "offsetInTicks" in phrase:
        ticks = [phrase[key] for key in ("offsetInTicks", "durationInTicks")]
        if any(
            isinstance(t, bool)
            or not isinstance(t, int | float)
            or not math.isfinite(t)
            or t != int(t)
            for t in ticks
        ):
            raise ValueError(f"{where}: ticks {ticks} are not whole numbers")
        start, length = (Decimal(int(t)) / TICKS_PER_SECOND for t in ticks)
    else:
        start, length = iso_seconds(phrase["offset"]), iso_seconds(phrase["duration"])
    if length < 0:
        raise ValueError(f"{where}: a negative duration ({float(length)} s)")
    return (
        checked_time(float(start), float(start), f"{where} start"),
        checked_time(float(start + length), float(start + length), f"{where} end"),
    )


def read(data: Any, session: str, origin: str) -> list[Segment]:
    segments = []
    for k, phrase in enumerate(data["recognizedPhrases"], start=1):
        status = phrase.get("recognitionStatus", "Success")
        if status != "Success" or not phrase.get("nBest"):
            words = (phrase.get("nBest") or [{}])[0].get("lexical") or ""
            if words.strip():
                note(
                    f"phrase {k}: recognitionStatus {status!r} with {len(words.split())} "
                    "word(s), left out (Azure marks its words unreliable)"
                )
            continue
        start, end = _span(phrase, f"phrase {k}")
        segments.append(
            Segment(
                session,
                start,
                end,
                label(phrase.get("speaker")),
                word_text(phrase["nBest"][0].get("lexical", ""), f"phrase {k} lexical"),
                f"{origin}:phrase {k}",
            )
        )
    return segments
