"""A unit's audio as systems receive it: 16 kHz mono 16-bit FLAC of ``[start, end)`` of the recording."""

from __future__ import annotations

from pathlib import Path

from msbench.rows import RecordingRow
from msbench.scoring.units import Unit


def write_unit_audio(recording: RecordingRow, unit: Unit, path: Path) -> None:
    """``[start, end)`` of the recording's channel, 16 kHz mono 16-bit FLAC, written atomically."""
    import os

    import numpy as np
    import soundfile

    from msbench.audio import read_channel

    channel = int(recording.get("channel") or 0)
    samples, rate = read_channel(recording["audio_path"], channel, unit.start, unit.end)
    if rate != 16000:
        import soxr

        samples = soxr.resample(samples, rate, 16000, quality="HQ").astype(np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp.flac")
    soundfile.write(temporary, np.clip(samples, -1.0, 1.0), 16000, subtype="PCM_16", format="FLAC")
    os.replace(temporary, path)
