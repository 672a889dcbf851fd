"""Exhaustive DNSMOS by shared computation equals scoring every window on its own (real audio)."""

from __future__ import annotations

import numpy as np
import pytest

from msbench.audio import read_channel
from msbench.models.dnsmos import CALIBRATION, WINDOW, DnsmosScorer, window_starts
from tests.helpers.paths import DEMO

pytestmark = pytest.mark.models


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def meeting() -> np.ndarray:
    """The demo's 60 s four-speaker AMI excerpt (ES2004a, headset mix): 51 windows."""
    samples, rate = read_channel(DEMO / "es2004a/audio/ES2004a.flac")
    assert rate == 16000
    return samples


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def each_window(meeting: np.ndarray) -> np.ndarray:
    """Raw SIG, BAK, OVRL of every 1 s-hop window, each scored on its own (the reference way)."""
    scorer = DnsmosScorer({"policy": "budget", "hop_seconds": 1.0, "max_windows": None})
    starts = window_starts(meeting.size, 16000, None)
    return np.concatenate(
        [scorer.primary.run(None, {"input_1": meeting[s : s + WINDOW][None]})[0] for s in starts]
    )


def test_shared_windows_equal_per_window_scoring(meeting: np.ndarray, each_window: np.ndarray):
    shared = DnsmosScorer({"policy": "exhaustive", "hop_seconds": 1.0, "block_windows": 8}).shared
    fast = shared.raw_scores(meeting, 100, len(each_window))
    assert fast.shape == each_window.shape == (51, 3)
    assert np.abs(fast - each_window).max() <= 1e-5  # 7 blocks of 8 windows, their edges patched


def test_the_exhaustive_policy_scores_what_the_reference_method_scores(
    meeting: np.ndarray, each_window: np.ndarray
):
    scores = DnsmosScorer({"policy": "exhaustive", "hop_seconds": 1.0}).score(meeting)
    assert scores.windows == 51
    for column, name in enumerate(("sig", "bak", "ovrl")):
        reference = float(np.polyval(CALIBRATION[name], each_window[:, column]).mean())
        assert abs(getattr(scores, name) - reference) <= 1e-5, name


def test_policies_choose_their_windows(meeting: np.ndarray):
    assert DnsmosScorer({"policy": "non-overlapping", "hop_seconds": 1.0}).hop == WINDOW
    assert len(window_starts(meeting.size, WINDOW, None)) == 6  # 60 s / 9.01 s
    budget = DnsmosScorer({"policy": "budget", "hop_seconds": 1.0, "max_windows": 24})
    assert budget.shared is None and len(window_starts(meeting.size, budget.hop, 24)) == 24


def test_the_memory_knobs_change_no_score(meeting: np.ndarray):
    """Windows per tail call (the job's memory) and the streamed spectrogram give the same bits."""
    from msbench.models.dnsmos_shared import _SpectrogramStream

    scores = {
        bw: DnsmosScorer(
            {"policy": "exhaustive", "hop_seconds": 1.0, "block_windows": bw}
        ).shared.raw_scores(meeting, 100, 51)
        for bw in (1, 4, 16)
    }
    assert np.array_equal(scores[1], scores[4]) and np.array_equal(scores[4], scores[16])
    shared = DnsmosScorer({"policy": "exhaustive", "hop_seconds": 1.0}).shared
    whole = shared.features(meeting, 5900)
    stream = _SpectrogramStream(shared, meeting, 5900)
    for low, high in ((0, 8), (892, 1808), (2700, 5900)):
        assert np.array_equal(stream.frames(low, high), whole[low:high])
    stream.forget_before(2700)
    assert sorted(stream.pieces) == [3, 4, 5, 6]
