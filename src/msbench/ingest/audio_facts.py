"""What ingest checks about an audio file before it is used: its header, and that it decodes to its end.

Missing, unreadable, corrupt and truncated files raise :class:`InputError` naming the file and the fix.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from msbench.errors import InputError


@dataclass(frozen=True)
class AudioInfo:
    path: str
    frames: int
    sample_rate: int
    channels: int

    @property
    def duration(self) -> float:
        return self.frames / self.sample_rate


def probe_audio(path: str | Path) -> AudioInfo:
    """Read the header only. Missing, unreadable and corrupt files raise InputError."""
    import soundfile

    audio = Path(path)
    if not audio.exists():
        raise InputError(
            path, "audio file not found", fix="check the `audio` pattern in the dataset sheet"
        )
    if audio.is_dir():
        raise InputError(
            path,
            "is a folder, not an audio file",
            fix="point the `audio` pattern of the dataset sheet at the session's audio file",
        )
    if not os.access(audio, os.R_OK):
        raise InputError(
            path,
            "cannot read the audio file (permission denied)",
            fix="make it readable for this user (chmod +r), or point `audio` at a readable copy",
        )
    try:
        info = soundfile.info(str(audio))
    except (RuntimeError, soundfile.LibsndfileError) as error:
        raise InputError(
            path,
            f"unreadable or corrupt audio header ({error})",
            fix="re-encode the file (WAV or FLAC)",
        ) from error
    if info.frames <= 0 or info.samplerate <= 0:
        raise InputError(path, "audio file holds no samples", fix="re-encode the file")
    decode_check(audio, int(info.frames))
    return AudioInfo(str(path), int(info.frames), int(info.samplerate), int(info.channels))


def decode_check(path: Path, frames: int, block: int = 1 << 20) -> None:
    """Decode the whole file, in blocks (cheap next to the models): a truncated FLAC fails here.

    Raises InputError when the file does not decode to the length its header states.
    """
    import soundfile

    decoded = 0
    try:
        with soundfile.SoundFile(str(path)) as stream:
            for chunk in stream.blocks(blocksize=block, dtype="float32", always_2d=True):
                decoded += len(chunk)
    except (RuntimeError, soundfile.LibsndfileError) as error:
        raise InputError(
            path,
            f"audio does not decode to its end ({error}; {decoded} of {frames} frames read)",
            fix="re-encode or re-download the file",
        ) from error
    if decoded < frames:
        raise InputError(
            path,
            f"audio ends early: {decoded} of the {frames} frames its header states",
            fix="re-encode or re-download the file",
        )
