"""One WAV per item, assembled as HEAR does: the clip, then the voice(s) the question is about.

Layout (16 kHz mono, 16-bit): the clip; 0.7 s of silence; for a question about
one voice (VL, VCA), a *reference cue* (a 440 Hz tone of 0.5 s), 0.3 s, the
reference snippet; for a question whose options are voices (CVA), for each
option k = 1..5 (A..E), the *letter code*: k short 880 Hz beeps (0.12 s on,
0.08 s off), 0.3 s, that voice's snippet, 0.5 s. The announcements are tones,
not speech: they need no speech synthesiser, are the same on every machine,
and are never confused with a voice. A prompt tells the model the code
(``LETTER_CODE`` in each row).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

RATE = 16000
LETTER_CODE = (
    "After the clip, a low tone announces the reference voice; the candidate voices are "
    "announced by beeps: one beep for A, two for B, three for C, four for D, five for E."
)


def tone(frequency: float, seconds: float, amplitude: float = 0.3) -> np.ndarray:
    """A sine with 10 ms raised-cosine fades.

    >>> len(tone(880, 0.12)), round(float(abs(tone(880, 0.12)).max()), 2)
    (1920, 0.3)
    """
    t = np.arange(int(round(seconds * RATE))) / RATE
    wave = amplitude * np.sin(2 * np.pi * frequency * t)
    fade = min(len(wave) // 2, int(0.01 * RATE))
    ramp = 0.5 - 0.5 * np.cos(np.linspace(0, np.pi, fade))
    wave[:fade] *= ramp
    wave[len(wave) - fade :] *= ramp[::-1]
    return wave.astype(np.float32)


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(round(seconds * RATE)), dtype=np.float32)


def letter_code(k: int) -> np.ndarray:
    """k beeps: the announcement of option k (1 = A)."""
    parts = []
    for _ in range(k):
        parts += [tone(880, 0.12), silence(0.08)]
    return np.concatenate(parts)


def item_audio(
    clip: np.ndarray, reference: np.ndarray | None, voices: Sequence[np.ndarray]
) -> np.ndarray:
    parts = [clip, silence(0.7)]
    if reference is not None:
        parts += [tone(440, 0.5), silence(0.3), reference, silence(0.3)]
    for k, voice in enumerate(voices, start=1):
        parts += [letter_code(k), silence(0.3), voice, silence(0.5)]
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
