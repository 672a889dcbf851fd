"""Reading one channel in blocks gives the samples a whole-file read gives, at a bounded memory."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import soundfile
import soxr

from msbench.audio import channel_blocks, read_channel
from msbench.scoring.unit_audio import write_unit_audio


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Seeded 3-channel noise, 200 s: a 16 kHz FLAC and a 48 kHz float WAV."""
    folder = tmp_path_factory.mktemp("audio")
    samples = (np.random.default_rng(1).standard_normal((16000 * 200 + 77, 3)) * 0.3).astype(
        np.float32
    )
    soundfile.write(folder / "a.flac", samples, 16000, subtype="PCM_16")
    soundfile.write(folder / "b.wav", samples, 48000, subtype="FLOAT")
    return {"flac": folder / "a.flac", "wav": folder / "b.wav"}


def whole(path: Path) -> np.ndarray:
    return soundfile.read(path, dtype="float32", always_2d=True)[0]


def test_a_channel_read_in_blocks_equals_the_whole_file_read(files):
    reference = whole(files["flac"])
    assert np.array_equal(read_channel(files["flac"], 2)[0], reference[:, 2])
    span, rate = read_channel(files["flac"], 1, 3.3, 17.9)
    assert rate == 16000
    assert np.array_equal(span, reference[52800:286400, 1])


def test_streamed_resampling_equals_one_shot_soxr(files):
    reference = soxr.resample(whole(files["wav"])[:, 1], 48000, 16000, quality="HQ")
    resampled, rate = read_channel(files["wav"], 1, rate=16000)
    assert rate == 48000 and len(resampled) == len(reference)
    assert np.array_equal(resampled, reference.astype(np.float32))


def test_blocks_hold_one_channel_of_one_block(files):
    _, most, blocks = channel_blocks(files["flac"], 0, block_frames=4096)
    sizes = [len(b) for b in blocks]
    assert max(sizes) == 4096 and sum(sizes) == most == 16000 * 200 + 77


def test_a_unit_written_block_by_block_has_the_bytes_of_a_one_piece_write(files, tmp_path):
    unit = SimpleNamespace(start=1.0, end=150.0)
    write_unit_audio({"audio_path": str(files["wav"]), "channel": 1}, unit, tmp_path / "u.flac")
    piece = whole(files["wav"])[48000 : 150 * 48000, 1]
    expected = soxr.resample(piece, 48000, 16000, quality="HQ").astype(np.float32)
    soundfile.write(tmp_path / "one.flac", np.clip(expected, -1, 1), 16000, subtype="PCM_16")
    assert (tmp_path / "u.flac").read_bytes() == (tmp_path / "one.flac").read_bytes()
