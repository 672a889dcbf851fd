"""Audio samples, read with libsndfile (soundfile), one channel, in blocks.

Samples are float32 in [-1, 1], one channel (the configured ``channel``,
0-based), at the file's own sample rate or resampled to the one asked for
(soxr HQ, streamed). What ingest checks about a file (header, full decode) is
:mod:`msbench.ingest.audio_facts`.

Memory: a file is read ``BLOCK_FRAMES`` frames at a time (all channels of one
block: 65,536 frames x channels x 4 bytes, 2 MB for 8 channels) and only the
wanted channel of each block is kept, so one channel of an 8-channel,
160-minute file costs that channel (614 MB at 16 kHz) plus one block, not the
4.9 GB of every channel decoded at once. libsndfile decodes each frame the
same way whatever the block size, and soxr's stream equals its one-shot
resampling, so the samples equal a whole-file read
(``tests/unit/test_audio_blocks.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from msbench.errors import InputError

BLOCK_FRAMES = 1 << 16


def channel_blocks(
    path: str | Path,
    channel: int = 0,
    start: float = 0.0,
    stop: float | None = None,
    rate: int | None = None,
    block_frames: int = BLOCK_FRAMES,
    peaks: list[float] | None = None,
) -> tuple[int, int, Iterator[np.ndarray]]:
    """``(file rate, most samples, blocks)``: one channel of ``[start, stop)`` s, block by block.

    ``blocks`` yields float32 pieces of the channel; with ``rate`` set and
    different from the file's, they are resampled with ``soxr.ResampleStream``
    (HQ), whose output equals the one-shot ``soxr.resample`` sample for
    sample (tested). ``most samples`` bounds what the blocks add up to. A file
    that ends before its header says yields the frames it holds.
    """
    import soundfile

    stream = _open(path, channel)
    source_rate = stream.samplerate
    first = int(round(start * source_rate))
    last = stream.frames if stop is None else min(stream.frames, int(round(stop * source_rate)))
    wanted = max(0, last - first)
    target = rate or source_rate
    most = wanted if target == source_rate else int(np.ceil(wanted * target / source_rate)) + 64

    def blocks() -> Iterator[np.ndarray]:
        resampler = None
        if target != source_rate:
            import soxr

            resampler = soxr.ResampleStream(source_rate, target, 1, dtype="float32", quality="HQ")
        buffer = np.empty((min(block_frames, wanted) or 1, stream.channels), dtype=np.float32)
        done = 0
        try:
            with stream:
                stream.seek(first)
                while done < wanted:
                    count = min(block_frames, wanted - done)
                    got = stream.read(count, dtype="float32", always_2d=True, out=buffer[:count])
                    done += len(got)
                    ended = done >= wanted or len(got) < count
                    piece = np.ascontiguousarray(got[:, channel])
                    if peaks is not None and len(piece):
                        peaks.append(float(np.abs(piece).max()))
                    yield (
                        piece if resampler is None else resampler.resample_chunk(piece, last=ended)
                    )
                    if ended:
                        break
        except (RuntimeError, soundfile.LibsndfileError) as error:
            raise InputError(path, f"cannot read audio samples ({error})") from error

    return source_rate, most, blocks()


def _open(path: str | Path, channel: int) -> Any:
    import soundfile

    try:
        stream = soundfile.SoundFile(str(path))
    except (RuntimeError, soundfile.LibsndfileError) as error:
        raise InputError(path, f"cannot read audio samples ({error})") from error
    if channel >= stream.channels:
        stream.close()
        raise InputError(
            path,
            f"channel {channel} requested, file has {stream.channels}",
            fix="set `channel` in the dataset sheet (0-based)",
        )
    return stream


def is_float_file(path: str | Path) -> bool:
    """Whether the file stores float samples (which, unlike integers, can pass full scale)."""
    import soundfile

    try:
        return soundfile.info(str(path)).subtype in ("FLOAT", "DOUBLE")
    except (RuntimeError, soundfile.LibsndfileError):
        return False


def file_seconds(path: str | Path, fallback: float) -> float:
    """The audio file's length from its header, or ``fallback`` when it cannot be read."""
    import soundfile

    try:
        return float(soundfile.info(str(path)).duration)
    except (RuntimeError, soundfile.LibsndfileError):
        return float(fallback)


def read_channel(
    path: str | Path,
    channel: int = 0,
    start: float = 0.0,
    stop: float | None = None,
    rate: int | None = None,
    peaks: list[float] | None = None,
) -> tuple[np.ndarray, int]:
    """One channel of ``[start, stop)`` seconds as float32 (at ``rate`` if given), and the file's rate.

    Memory: the result plus one block (:func:`channel_blocks`, which fills ``peaks``).
    """
    source_rate, most, blocks = channel_blocks(path, channel, start, stop, rate, peaks=peaks)
    samples = np.empty(most, dtype=np.float32)
    filled = 0
    for piece in blocks:
        samples[filled : filled + len(piece)] = piece
        filled += len(piece)
    return samples[:filled], source_rate
