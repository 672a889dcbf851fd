"""One WAV per item, assembled as HEAR does: the clip, then the voice(s) the question is about.

Layout (16 kHz mono, 16-bit): the clip; 0.7 s of silence; for a question about
one voice (VL, VCA), the spoken words "reference voice", 0.3 s, the reference
snippet; for a question whose options are voices (CVA), for each option the
spoken letter (A to E), 0.3 s, that voice's snippet, 0.5 s. The letters are
announced the way HEAR's CVA prompt promises ("each option (A through E) is
announced before its voice sample"); the spoken prompts ship with msbench
(``probes/assets/*.wav``, made once by ``scripts/make_probe_prompts.sh`` with
espeak-ng), so every machine assembles the same bytes. Each row's
``announcement`` says the layout.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

RATE = 16000
LETTERS = "ABCDE"


def announcement(reference: bool, voices: int) -> str:
    """What the item's audio holds after the clip, in words (each row's ``announcement``).

    >>> announcement(False, 2)
    'After the clip, each option is announced by its spoken letter (A, B) before its voice.'
    """
    if voices:
        letters = ", ".join(LETTERS[:voices])
        return f"After the clip, each option is announced by its spoken letter ({letters}) before its voice."
    if reference:
        return 'After the clip, the spoken words "reference voice" announce the target speaker\'s voice.'
    return "The clip alone."


@cache
def prompt(name: str) -> np.ndarray:
    """A shipped spoken prompt (``A`` ... ``E``, ``reference``), 16 kHz float32."""
    import soundfile

    with resources.as_file(resources.files("msbench.probes") / "assets" / f"{name}.wav") as path:
        samples, rate = soundfile.read(str(path), dtype="float32")
    if rate != RATE:
        raise RuntimeError(f"{path}: a shipped prompt at {rate} Hz, expected {RATE}")
    return np.asarray(samples, dtype=np.float32)


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(round(seconds * RATE)), dtype=np.float32)


def item_audio(
    clip: np.ndarray, reference: np.ndarray | None, voices: Sequence[np.ndarray]
) -> np.ndarray:
    parts = [clip, silence(0.7)]
    if reference is not None:
        parts += [prompt("reference"), silence(0.3), reference, silence(0.3)]
    for k, voice in enumerate(voices):
        parts += [prompt(LETTERS[k]), silence(0.3), voice, silence(0.5)]
    return np.concatenate(parts).astype(np.float32)


def read_span(path: str, channel: int, start: float, end: float) -> np.ndarray:
    """``[start, end)`` of one channel at 16 kHz."""
    import soxr

    from msbench.audio import read_channel

    samples, rate = read_channel(path, channel, start, end)
    return samples if rate == RATE else soxr.resample(samples, rate, RATE).astype(np.float32)


def recording_span(
    recordings: Mapping[str, Mapping[str, Any]], rid: str, start: float, end: float
) -> np.ndarray:
    """``[start, end)`` of recording ``rid`` (its ``audio_path`` and ``channel`` in recordings.csv)."""
    row = recordings[rid]
    return read_span(str(row["audio_path"]), int(row.get("channel") or 0), start, end)
