"""NISQA v2 (``nisqa.tar``: MOS and the NOI, DIS, COL, LOUD dimensions), run in memory.

The network is the ``nisqa`` package's ``NISQA_DIM``, built from the
checkpoint's own ``args``. Features follow the reference predictor
(``NISQA_lib.get_librosa_melspec`` + ``segment_specs``) at the recording's
16 kHz rate (``ms_sr`` is None in the checkpoint, so the reference also keeps
the native rate): 48-band log-mel, n_fft 4096, 10 ms hop, 20 ms window,
fmax 20 kHz, ``amplitude_to_db(ref=1, amin=1e-4, top_db=80)``, then 15-frame
segments with a hop of 4 frames.

The reference refuses inputs over ``ms_max_segments`` (1,300) segments, about
52 s. We score ``chunk_seconds`` (default 10 s) chunks instead, and average
each output over the chunks, weighting by chunk duration; with ``max_chunks``
set, that many chunks are taken evenly over the recording. A final chunk
shorter than 1 s is merged into the previous one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from msbench.errors import ModelUnavailableError
from msbench.models.weights import NISQA, download_url, resolve_weights

SAMPLE_RATE = 16000
NISQA_URL = "https://github.com/gabrielmittag/NISQA/raw/master/weights/nisqa.tar"
OUTPUTS = ("mos", "noi", "dis", "col", "loud")
MIN_CHUNK_SECONDS = 1.0
#: The checkpoint ``args`` the reference passes to ``NISQA_DIM`` (NISQA_model._loadModel).
MODEL_ARGS = (
    "ms_seg_length",
    "ms_n_mels",
    "cnn_model",
    "cnn_c_out_1",
    "cnn_c_out_2",
    "cnn_c_out_3",
    "cnn_kernel_size",
    "cnn_dropout",
    "cnn_pool_1",
    "cnn_pool_2",
    "cnn_pool_3",
    "cnn_fc_out_h",
    "td",
    "td_sa_d_model",
    "td_sa_nhead",
    "td_sa_pos_enc",
    "td_sa_num_layers",
    "td_sa_h",
    "td_sa_dropout",
    "td_lstm_h",
    "td_lstm_num_layers",
    "td_lstm_dropout",
    "td_lstm_bidirectional",
    "td_2",
    "td_2_sa_d_model",
    "td_2_sa_nhead",
    "td_2_sa_pos_enc",
    "td_2_sa_num_layers",
    "td_2_sa_h",
    "td_2_sa_dropout",
    "td_2_lstm_h",
    "td_2_lstm_num_layers",
    "td_2_lstm_dropout",
    "td_2_lstm_bidirectional",
    "pool",
    "pool_att_h",
    "pool_att_dropout",
)


@dataclass(frozen=True)
class NisqaScores:
    mos: float
    noi: float
    dis: float
    col: float
    loud: float
    chunks: int


def download_nisqa(target_dir: Path) -> Path:
    return download_url(NISQA_URL, target_dir / "nisqa.tar")


def chunk_bounds(num_samples: int, chunk: int, max_chunks: int | None) -> list[tuple[int, int]]:
    bounds = [(start, min(start + chunk, num_samples)) for start in range(0, num_samples, chunk)]
    if len(bounds) > 1 and bounds[-1][1] - bounds[-1][0] < MIN_CHUNK_SECONDS * SAMPLE_RATE:
        last = bounds.pop()
        bounds[-1] = (bounds[-1][0], last[1])
    if max_chunks and len(bounds) > max_chunks:
        picks = np.unique(np.round(np.linspace(0, len(bounds) - 1, max_chunks)).astype(int))
        bounds = [bounds[i] for i in picks]
    return bounds


class NisqaScorer:
    def __init__(
        self,
        settings: Mapping[str, Any],
        model_settings: Mapping[str, Any],
        threads: int = 1,
        device: str = "cpu",
    ) -> None:
        import torch
        from nisqa import NISQA_lib

        torch.set_num_threads(threads)
        self.lib = NISQA_lib
        self.weights = resolve_weights(NISQA, model_settings, download_nisqa)
        try:
            checkpoint = torch.load(self.weights, map_location="cpu", weights_only=False)
            self.args = checkpoint["args"]
            if self.args.get("model") != "NISQA_DIM":
                raise KeyError(f"model is {self.args.get('model')!r}, expected NISQA_DIM")
        except (KeyError, RuntimeError, EOFError) as error:
            raise ModelUnavailableError(
                f"{self.weights} is not a NISQA v2 nisqa.tar checkpoint: {error}"
            ) from error
        self.model = NISQA_lib.NISQA_DIM(**{key: self.args[key] for key in MODEL_ARGS})
        self.model.load_state_dict(checkpoint["model_state_dict"], strict=True)
        self.device = torch.device(device)
        self.model.to(self.device).eval()
        self.chunk = int(round(settings["chunk_seconds"] * SAMPLE_RATE))
        self.max_chunks = settings.get("max_chunks")

    def _melspec(self, audio: np.ndarray) -> np.ndarray:
        import librosa

        a = self.args
        mel = librosa.feature.melspectrogram(
            y=audio,
            sr=SAMPLE_RATE,
            S=None,
            n_fft=a["ms_n_fft"],
            hop_length=int(SAMPLE_RATE * a["ms_hop_length"]),
            win_length=int(SAMPLE_RATE * a["ms_win_length"]),
            window="hann",
            center=True,
            pad_mode="reflect",
            power=1.0,
            n_mels=a["ms_n_mels"],
            fmin=0.0,
            fmax=a["ms_fmax"],
            htk=False,
            norm="slaney",
        )
        return librosa.amplitude_to_db(mel, ref=1.0, amin=1e-4, top_db=80.0)

    def score_chunk(self, audio: np.ndarray) -> np.ndarray:
        import torch

        spec = self._melspec(audio)
        segments, n_wins = self.lib.segment_specs(
            "<memory>", spec, self.args["ms_seg_length"], self.args["ms_seg_hop_length"]
        )
        with torch.inference_mode():
            out = self.model(
                segments.unsqueeze(0).float().to(self.device), torch.tensor([int(n_wins)])
            )
        return out[0].cpu().numpy()

    def score(self, audio: np.ndarray) -> NisqaScores:
        import warnings

        audio = np.asarray(audio, dtype=np.float32)
        bounds = chunk_bounds(audio.size, self.chunk, self.max_chunks)
        with (
            warnings.catch_warnings()
        ):  # fmax above Nyquist leaves empty mel bands, as in the reference
            warnings.simplefilter("ignore", UserWarning)
            scores = np.stack([self.score_chunk(audio[a:b]) for a, b in bounds])
        weights = np.array([b - a for a, b in bounds], dtype=float)
        mean = (scores * weights[:, None]).sum(axis=0) / weights.sum()
        mos, noi, dis, col, loud = (float(v) for v in mean)
        return NisqaScores(mos, noi, dis, col, loud, chunks=len(bounds))
