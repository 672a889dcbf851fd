"""whisper.cpp's ``whisper-cli -oj`` (and ``-ojf``, the same with each segment's ``tokens``)
JSON: ``{"systeminfo", "model", "params", "result": {"language"}, "transcription": [{"timestamps":
{"from", "to"}, "offsets": {"from", "to"}, "text", "speaker"}]}`` (``examples/cli/cli.cpp``,
``output_json``). Times are ``offsets`` in integer milliseconds (exact). ``speaker`` is written
with ``-di`` on stereo input (``"0"``, ``"1"``, or ``"?"`` where the channels do not tell);
``-tdrz`` marks turns (``speaker_turn_next``) but names no speaker, so without ``speaker`` the
segments have none: a ``<unit>.rttm`` beside the file gives them its speakers (the cascade, as
for a Whisper result), else the unit is excluded as having no speaker.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msbench.io.json_outputs import label, millis, read_document, read_parsed
from msbench.io.sample import Sample
from msbench.io.whisperx import join_diarization
from msbench.records import Segment

LOOKS_FOR = "an object with a list 'transcription' of {offsets: {from, to}, text, speaker}"


def looks(data: Any) -> bool:
    items = data.get("transcription") if isinstance(data, dict) else None
    first = items[0] if isinstance(items, list) and items else None
    return isinstance(first, dict) and "offsets" in first


def read(data: Any, session: str, origin: str) -> list[Segment]:
    return [
        Segment(
            session,
            millis(t["offsets"]["from"], f"segment {k} from"),
            millis(t["offsets"]["to"], f"segment {k} to"),
            label(t.get("speaker")),
            str(t.get("text") or "").strip(),
            f"{origin}:segment {k}",
        )
        for k, t in enumerate(data["transcription"], start=1)
    ]


def _as_whisper(data: Any) -> dict[str, Any]:
    """The segments in a Whisper result's shape (seconds), for the diarization join."""
    return {
        "segments": [
            {
                "start": millis(t["offsets"]["from"], "from"),
                "end": millis(t["offsets"]["to"], "to"),
                "text": t.get("text", ""),
            }
            for t in data["transcription"]
        ]
    }


def read_whisper_cpp(sample: Sample) -> list[Segment]:
    """The segments; without speakers and with ``<unit>.rttm`` beside, joined with it."""
    rttm = Path(sample.path).with_suffix(".rttm")
    data = sample.data
    if looks(data) and not any("speaker" in t for t in data["transcription"]) and rttm.is_file():
        return read_parsed(
            sample,
            "whisper-cpp",
            lambda d, s, o: join_diarization(_as_whisper(d), rttm, s, o),
            data,
        )
    return read_document(sample, "whisper-cpp", read)
