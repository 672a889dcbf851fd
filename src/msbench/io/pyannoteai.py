"""The pyannoteAI API's diarization job output: ``{"jobId", "status": "succeeded", "output":
{"diarization": [{"speaker": "SPEAKER_00", "start", "end"}]}}`` (or the ``output`` object alone,
as saved by its SDK, or with ``exclusive``: ``exclusiveDiarization``). Speaker times only, no
words: DER alone, like an RTTM.
"""

from __future__ import annotations

from typing import Any

from msbench.io.json_outputs import label, seconds
from msbench.records import Segment

LOOKS_FOR = "an object with 'diarization' (or 'output': {'diarization'}) of {speaker, start, end}"


def _turns(data: Any) -> Any:
    inner = data.get("output", data) if isinstance(data, dict) else None
    return inner.get("diarization") if isinstance(inner, dict) else None


def looks(data: Any) -> bool:
    turns = _turns(data)
    return (
        isinstance(turns, list)
        and bool(turns)
        and isinstance(turns[0], dict)
        and "speaker" in turns[0]
    )


def read(data: Any, session: str, origin: str) -> list[Segment]:
    return [
        Segment(
            session,
            seconds(t["start"], f"turn {k} start"),
            seconds(t["end"], f"turn {k} end"),
            label(t["speaker"]),
            None,
            f"{origin}:turn {k}",
        )
        for k, t in enumerate(_turns(data), start=1)
    ]
