"""DNSMOS P.835 (SIG, BAK, OVRL) and P.808 from the ONNX models shipped in the ``speechmos`` wheel.

Same models, features and polynomial calibration as Microsoft's reference
script and ``speechmos.dnsmos`` (non-personalised), with our own window loop:

* window = ``round(9.01 * 16000)`` = 144,160 samples; the P.808 model sees the
  log-mel (120 bands, n_fft 321, hop 160) of the window minus its last 160
  samples, exactly as the reference;
* which windows are scored is the **policy** (``acoustic.dnsmos.policy``):

  - ``exhaustive`` (default): every window of the reference method, starts
    ``k * hop`` for ``k = 0 .. floor((n - L) / hop)`` with a 1 s hop (the
    reference computes the window end in floating point, ``int((k + 9.01) *
    16000)``, and silently drops windows whose end rounds down; we score them).
    With a hop on the 160-sample frame grid, SIG/BAK/OVRL come from the
    shared computation of :mod:`msbench.models.dnsmos_shared` (equal to
    per-window scoring, 5.3x less CPU for P.835; README "Speed");
  - ``non-overlapping``: every window, hop = one window (9.01 s);
  - ``budget``: 1 s hop, at most ``max_windows`` starts taken evenly over the
    recording (``linspace`` over the start indices, rounded): a bounded cost
    per recording, but not the reference's mean (README "Speed");

* audio shorter than one window is repeated until it fills one, as the reference does;
* ONNX sessions are created once per process, with ``threads`` intra-op threads.

Scores are the means over the windows scored (P.808 per window: its input is
normalised per window, so it cannot be shared).
"""

from __future__ import annotations

import importlib.resources
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

SAMPLE_RATE = 16000
WINDOW = int(round(9.01 * SAMPLE_RATE))
P808_TRIM = 160
FRAME_HOP = 160  # the primary model's frame hop (samples)
CALIBRATION = {  # non-personalised polynomials of the reference script, highest power first
    "sig": (-0.08397278, 1.22083953, 0.0052439),
    "bak": (-0.13166888, 1.60915514, -0.39604546),
    "ovrl": (-0.06766283, 1.11546468, 0.04602535),
}


@dataclass(frozen=True)
class DnsmosScores:
    sig: float
    bak: float
    ovrl: float
    p808: float
    windows: int


def window_starts(num_samples: int, hop: int, max_windows: int | None) -> np.ndarray:
    """Start samples of the scored windows (see the module docstring)."""
    count = (num_samples - WINDOW) // hop + 1 if num_samples >= WINDOW else 1
    starts = np.arange(count) * hop
    if max_windows and count > max_windows:
        picks = np.unique(np.round(np.linspace(0, count - 1, max_windows)).astype(int))
        starts = starts[picks]
    return starts


def _melspec(window: np.ndarray) -> np.ndarray:
    import librosa

    mel = librosa.feature.melspectrogram(
        y=window, sr=SAMPLE_RATE, n_fft=321, hop_length=160, n_mels=120
    )
    return ((librosa.power_to_db(mel, ref=np.max) + 40) / 40).T


class DnsmosScorer:
    def __init__(self, settings: Mapping[str, Any], threads: int = 1, device: str = "cpu") -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        providers = ["CPUExecutionProvider"]
        if device == "cuda":
            if "CUDAExecutionProvider" not in ort.get_available_providers():
                from msbench.errors import ModelUnavailableError

                raise ModelUnavailableError(
                    "acoustic.device is cuda but this onnxruntime has no CUDA provider: "
                    "pip uninstall -y onnxruntime && pip install 'onnxruntime-gpu>=1.18,<2' "
                    "(README: On a GPU node)"
                )
            providers = ["CUDAExecutionProvider", "CPUExecutionProvider"]
        folder = importlib.resources.files("speechmos") / "dnsmos_models"
        self.primary = ort.InferenceSession(
            str(folder / "sig_bak_ovr.onnx"), options, providers=providers
        )
        self.p808 = ort.InferenceSession(
            str(folder / "model_v8.onnx"), options, providers=providers
        )
        self.policy = settings.get("policy", "exhaustive")
        self.hop = int(round(settings["hop_seconds"] * SAMPLE_RATE))
        self.max_windows = settings.get("max_windows") if self.policy == "budget" else None
        if self.policy == "non-overlapping":
            self.hop = WINDOW
        self.batch_size = settings.get("batch_size", 1)
        self.shared = None
        if self.policy == "exhaustive" and self.hop % FRAME_HOP == 0:
            from msbench.models.dnsmos_shared import SharedPrimary

            self.shared = SharedPrimary(options, providers, settings.get("block_windows", 4))

    def score(self, audio: np.ndarray) -> DnsmosScores:
        """``audio``: 16 kHz mono float32 in [-1, 1]."""
        audio = np.asarray(audio, dtype=np.float32)
        if audio.size == 0:
            raise ValueError("empty audio")
        while audio.size < WINDOW:
            audio = np.concatenate([audio, audio])
        starts = window_starts(audio.size, self.hop, self.max_windows)
        raw, p808 = [], []
        for first in range(0, len(starts), self.batch_size):
            windows = np.stack(
                [audio[s : s + WINDOW] for s in starts[first : first + self.batch_size]]
            )
            if self.shared is None:
                raw.append(self.primary.run(None, {"input_1": windows})[0])
            mels = np.stack([_melspec(w[:-P808_TRIM]) for w in windows]).astype(np.float32)
            p808.append(self.p808.run(None, {"input_1": mels})[0][:, 0])
        if self.shared is not None:
            raw = [self.shared.raw_scores(audio, self.hop // FRAME_HOP, len(starts))]
        raw_scores = np.concatenate(raw)
        calibrated = {
            name: np.polyval(CALIBRATION[name], raw_scores[:, column])
            for column, name in enumerate(("sig", "bak", "ovrl"))
        }
        return DnsmosScores(
            sig=float(calibrated["sig"].mean()),
            bak=float(calibrated["bak"].mean()),
            ovrl=float(calibrated["ovrl"].mean()),
            p808=float(np.concatenate(p808).mean()),
            windows=len(starts),
        )
