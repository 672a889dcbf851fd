"""Audio samples, read with libsndfile (soundfile).

Samples are returned as float32 in [-1, 1], one channel (the configured
``channel``, 0-based), at the file's own sample rate; resampling is the
caller's business. What ingest checks about a file (header, full decode) is
:mod:`msbench.ingest.audio_facts`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msbench.errors import InputError


def read_channel(
    path: str | Path, channel: int = 0, start: float = 0.0, stop: float | None = None
) -> tuple[np.ndarray, int]:
    """One channel of ``[start, stop)`` seconds as float32, and the sample rate."""
    import soundfile

    try:
        with soundfile.SoundFile(str(path)) as stream:
            rate = stream.samplerate
            if channel >= stream.channels:
                raise InputError(
                    path,
                    f"channel {channel} requested, file has {stream.channels}",
                    fix="set `channel` in the dataset sheet (0-based)",
                )
            first = int(round(start * rate))
            last = stream.frames if stop is None else min(stream.frames, int(round(stop * rate)))
            stream.seek(first)
            samples = stream.read(max(0, last - first), dtype="float32", always_2d=True)
    except (RuntimeError, soundfile.LibsndfileError) as error:
        raise InputError(path, f"cannot read audio samples ({error})") from error
    return np.ascontiguousarray(samples[:, channel]), rate
