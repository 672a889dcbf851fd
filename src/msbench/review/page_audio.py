"""The review site's audio: one compact, reproducible file per recording page.

A recording's channel is read (``audio_path``, ``channel`` of recordings.csv),
cut to the page's window, resampled to ``review.sample_rate`` with soxr and
written as Ogg Opus by default: about 10 MB per audio hour of 16 kHz speech (21 kbps
measured on the demo), so that a 33-hour benchmark's site stays near 330 MB. Ogg files get a fixed stream serial (:mod:`msbench.review.ogg`), so
the same recording gives the same bytes.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

SUFFIXES = {"opus": ".opus", "vorbis": ".ogg", "flac": ".flac", "wav": ".wav"}
_SOUNDFILE = {
    "opus": ("OGG", "OPUS"),
    "vorbis": ("OGG", "VORBIS"),
    "flac": ("FLAC", "PCM_16"),
    "wav": ("WAV", "PCM_16"),
}


def page_window(duration: float, first_speech: float, excerpt: float | None) -> tuple[float, float]:
    """``(start, end)`` seconds the page covers: all, or ``excerpt`` s from the first speech.

    >>> page_window(30.0, 2.13, None), page_window(3600.0, 62.5, 600.0), page_window(30.0, 25.0, 10.0)
    ((0.0, 30.0), (62.0, 662.0), (20.0, 30.0))
    """
    if excerpt is None or excerpt >= duration:
        return 0.0, duration
    start = min(float(int(first_speech)), duration - excerpt)
    return start, start + excerpt


def encode(samples: np.ndarray, rate: int, audio_format: str) -> bytes:
    """``samples`` (float32, mono) as a file of ``audio_format`` (see ``SUFFIXES``)."""
    import soundfile

    from msbench.review.ogg import fixed_serial

    container, subtype = _SOUNDFILE[audio_format]
    buffer = io.BytesIO()
    soundfile.write(buffer, samples, rate, format=container, subtype=subtype)
    data = buffer.getvalue()
    return fixed_serial(data) if container == "OGG" else data


def page_audio(
    path: str | Path,
    channel: int,
    window: tuple[float, float],
    rate: int,
    audio_format: str,
) -> bytes:
    """The page's audio: ``window`` of one channel of ``path``, at ``rate``, encoded."""
    import soxr

    from msbench.audio import read_channel

    samples, source_rate = read_channel(path, channel, window[0], window[1])
    if source_rate != rate:
        samples = soxr.resample(samples, source_rate, rate)
    return encode(samples, rate, audio_format)


def clip_audio(path: str | Path, rate: int, audio_format: str) -> bytes:
    """A whole (mono or first-channel) clip, such as a probe item's WAV, at ``rate``, encoded."""
    import soundfile
    import soxr

    samples, source_rate = soundfile.read(str(path), dtype="float32", always_2d=True)
    mono = samples[:, 0]
    if source_rate != rate:
        mono = soxr.resample(mono, source_rate, rate)
    return encode(mono, rate, audio_format)
