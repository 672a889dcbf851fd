"""WhisperX (and Whisper / faster-whisper) result JSON:
``{"segments": [{"start", "end", "text", "speaker", "words"}], "language"}``
(``whisperx.assign_word_speakers``). A segment without ``speaker`` takes its words' most frequent
one, else it is left without one (an incomplete output). A result without any speaker is joined
with the diarization RTTM beside it (``<unit>.rttm``): the paper's cascade.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msbench.errors import InputError
from msbench.io.json_outputs import (
    Word,
    read_document,
    read_parsed,
    seconds,
    turns_of_words,
    word_text,
)
from msbench.io.rttm import read_rttm
from msbench.io.sample import Sample
from msbench.records import Segment

LOOKS_FOR = "an object with a list 'segments' of {start, end, text, speaker}"


def looks(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("segments"), list)


def read(data: Any, session: str, origin: str) -> list[Segment]:
    found = []
    for k, s in enumerate(data["segments"], start=1):
        speaker = s.get("speaker")
        if speaker is None:
            named = [w["speaker"] for w in s.get("words", []) if w.get("speaker")]
            speaker = max(set(named), key=named.count) if named else ""
        found.append(
            Segment(
                session,
                seconds(s["start"], f"segment {k} start"),
                seconds(s["end"], f"segment {k} end"),
                str(speaker),
                str(s.get("text") or "").strip(),
                f"{origin}:segment {k}",
            )
        )
    return found


def speakerless(data: Any) -> bool:
    """A Whisper / faster-whisper result: segments (and words) without any speaker."""
    segments = data.get("segments") or []
    return not any(
        s.get("speaker") or any(w.get("speaker") for w in s.get("words") or []) for s in segments
    )


def join_diarization(data: Any, rttm: Path, session: str, origin: str) -> list[Segment]:
    """The paper's cascade: a Whisper / faster-whisper result's words, each given to the
    diarization turn (``<unit>.rttm`` beside it) it overlaps most, else the nearest turn
    (WhisperX's ``assign_word_speakers`` with ``fill_nearest``); a segment without word
    times counts as one word. Consecutive words of one speaker are one segment."""
    turns = [(t.start_time, t.end_time, t.speaker) for a in read_rttm(rttm) for t in a.segments]
    if not turns:
        raise InputError(rttm, "holds no speaker turn to give the words to")
    words: list[Word] = []
    for s, segment in enumerate(data["segments"], start=1):
        spans = segment.get("words") or [
            {"start": segment["start"], "end": segment["end"], "word": segment.get("text", "")}
        ]
        for w in spans:
            where = f"segment {s} word {len(words) + 1}"
            start, end = seconds(w["start"], f"{where} start"), seconds(w["end"], f"{where} end")
            overlap = [
                (min(end, b) - max(start, a), -min(abs(start - b), abs(end - a)), who)
                for a, b, who in turns
            ]
            words.append((start, end, max(overlap)[2], word_text(w["word"], where).strip()))
    return turns_of_words(words, session, f"{origin} + {rttm}")


def read_whisperx(sample: Sample) -> list[Segment]:
    """The result, joined with ``<unit>.rttm`` when it names no speaker and one is beside it."""
    rttm = Path(sample.path).with_suffix(".rttm")
    data = sample.data
    if looks(data) and speakerless(data) and rttm.is_file():
        return read_parsed(
            sample, "whisperx", lambda d, s, o: join_diarization(d, rttm, s, o), data
        )
    return read_document(sample, "whisperx", read)
