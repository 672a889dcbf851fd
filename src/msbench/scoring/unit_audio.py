"""A unit's audio as systems receive it: 16 kHz mono 16-bit FLAC of ``[start, end)`` of the recording."""

from __future__ import annotations

from pathlib import Path

from msbench.rows import RecordingRow
from msbench.scoring.units import Unit


def write_unit_audio(recording: RecordingRow, unit: Unit, path: Path) -> None:
    """``[start, end)`` of the recording's channel, 16 kHz mono 16-bit FLAC, written atomically.

    Read, resampled, clipped and written block by block (memory: one block,
    whatever the unit's length; the file's bytes equal a one-piece write).
    """
    import os

    import numpy as np
    import soundfile

    from msbench.audio import channel_blocks
    from msbench.textio import make_folder

    channel = int(recording.get("channel") or 0)
    _, _, blocks = channel_blocks(recording["audio_path"], channel, unit.start, unit.end, 16000)
    make_folder(path.parent)
    temporary = path.with_name(f".{path.name}.tmp.flac")
    with soundfile.SoundFile(temporary, "w", 16000, 1, subtype="PCM_16", format="FLAC") as out:
        for piece in blocks:
            out.write(np.clip(piece, -1.0, 1.0))
    os.replace(temporary, path)
