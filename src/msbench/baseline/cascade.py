"""One inference unit through the cascade: VAD -> diarization -> recognition -> SegLST.

Each recognised word goes to the speaker whose turn covers the word's
midpoint; a word outside every turn (the recogniser heard speech the VAD did
not) goes to the nearest turn, and to ``spk0`` when the unit has no turn.
Consecutive words of one speaker less than ``MAX_GAP`` apart form one
segment. Times are written in recording time (the unit's start added).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from msbench.baseline.diarization import Turn, diarize
from msbench.baseline.recognition import Word, transcribe
from msbench.models.vad import speech_regions

MAX_GAP = 1.0  # seconds between two words of one segment


def speaker_of(word: Word, turns: Sequence[Turn], starts: Sequence[float]) -> str:
    """The speaker of the turn covering the word's midpoint, else of the nearest turn.

    >>> turns = [Turn("spk0", 0.0, 2.0), Turn("spk1", 3.0, 5.0)]
    >>> [speaker_of(Word(a, b, "w"), turns, [0.0, 3.0]) for a, b in ((1, 1.2), (2.4, 2.5), (2.6, 2.9))]
    ['spk0', 'spk0', 'spk1']
    """
    if not turns:
        return "spk0"
    middle = (word.start + word.end) / 2
    k = bisect.bisect_right(starts, middle) - 1
    candidates = [turns[j] for j in (k, k + 1) if 0 <= j < len(turns)]
    return min(candidates, key=lambda t: max(0.0, t.start - middle, middle - t.end)).speaker


def segments_of(
    words: Sequence[Word], turns: Sequence[Turn], unit_id: str, offset: float
) -> list[dict[str, Any]]:
    """SegLST segments of the words (see the module docstring)."""
    ordered = sorted(turns, key=lambda t: t.start)
    starts = [t.start for t in ordered]
    out: list[dict[str, Any]] = []
    for word in words:
        speaker = speaker_of(word, ordered, starts)
        last = out[-1] if out else None
        if last and last["speaker"] == speaker and word.start + offset - last["end_time"] < MAX_GAP:
            last["end_time"] = round(word.end + offset, 3)
            last["words"] += " " + word.text
            continue
        out.append(
            {
                "session_id": unit_id,
                "speaker": speaker,
                "start_time": round(word.start + offset, 3),
                "end_time": round(word.end + offset, 3),
                "words": word.text,
            }
        )
    return out


@dataclass(frozen=True)
class UnitResult:
    segments: list[dict[str, Any]]
    speech_seconds: float
    speakers: int
    model_folder: str
    language: str = ""  # the language code Whisper decoded with (given or detected)


def run_unit(
    audio: np.ndarray,
    unit_id: str,
    offset: float,
    language: str,
    embedder: Any,
    settings: Mapping[str, Any],
    device: str,
    cache_folder: Path | None = None,
) -> UnitResult:
    """The unit's SegLST (``audio``: the unit's 16 kHz samples; ``offset``: its start;
    ``cache_folder``: the weights cache, where multilingual Whisper is joined)."""
    threads = int(settings["threads"])
    regions = speech_regions(audio, settings["vad"])
    turns = diarize(audio, regions, embedder, settings["diarization"])
    words, folder, code = transcribe(
        audio, language, settings["asr"], device, threads, cache_folder
    )
    return UnitResult(
        segments_of(words, turns, unit_id, offset),
        sum(b - a for a, b in regions),
        len({t.speaker for t in turns}),
        str(folder),
        code,
    )
