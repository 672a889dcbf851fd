"""Model-based features of one recording: speaker similarity (CAM++), DNSMOS P.835, NISQA.

Audio handling: the configured channel is read; samples that are NaN or
infinite reject the recording (the file is damaged, the models would return
garbage); other rates are resampled to 16 kHz with soxr (high quality);
``clipping_fraction`` is the share of samples with ``|x| >= 0.999`` (kept,
and flagged in notes above 0.1 %). Models load once per process, lazily.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from msbench.audio import is_float_file, read_channel
from msbench.errors import InputError
from msbench.features.integrity import clipping_fraction, integrity_flags
from msbench.features.similarity import speaker_similarity
from msbench.models.device import resolve_device
from msbench.records import IngestedRecording

if TYPE_CHECKING:  # the models import torch/onnxruntime lazily
    from msbench.models.campplus import CamPlusEmbedder
    from msbench.models.dnsmos import DnsmosScorer
    from msbench.models.nisqa import NisqaScorer

SAMPLE_RATE = 16000
CLIPPING_NOTE = 0.001


def load_16k(item: IngestedRecording) -> tuple[np.ndarray, int]:
    """The recording's channel at 16 kHz, clipped to [-1, 1], and the file's own rate.

    Read and resampled block by block (:func:`msbench.audio.channel_blocks`),
    checked and clipped in place: memory is the 16 kHz channel (3.84 MB per
    audio minute) plus one block, whatever the file's channels and rate.
    """
    recording = item.recording
    peaks: list[float] = []
    audio, rate = read_channel(
        recording.audio_path, recording.channel, rate=SAMPLE_RATE, peaks=peaks
    )
    bad = first_non_finite(audio)
    if bad is not None:
        raise InputError(
            recording.audio_path,
            f"non-finite sample (NaN/inf) at {bad / SAMPLE_RATE:.3f} s",
            fix="re-export the audio",
        )
    peak = max(peaks, default=0.0)
    if peak > 1.0 and is_float_file(recording.audio_path):
        raise InputError(
            recording.audio_path,
            f"float samples reach {peak:.2f} x full scale (a float file is scaled to [-1, 1]); "
            "the gain is wrong, and clipping it would change the signal",
            fix="re-export the audio scaled to [-1, 1] (or as 16-bit PCM)",
        )
    np.clip(audio, -1.0, 1.0, out=audio)
    return audio, rate


def first_non_finite(audio: np.ndarray, block: int = 1 << 20) -> int | None:
    """Index of the first NaN or infinite sample, or None (checked a block at a time).

    >>> first_non_finite(np.array([0.0, 1.0, np.nan, np.inf])), first_non_finite(np.zeros(3))
    (2, None)
    """
    for start in range(0, len(audio), block):
        finite = np.isfinite(audio[start : start + block])
        if not finite.all():
            return start + int(np.flatnonzero(~finite)[0])
    return None


class AcousticExtractor:
    """Holds the three models for the life of the process."""

    def __init__(self, settings: Mapping[str, Any], model_settings: Mapping[str, Any]) -> None:
        self.settings = settings
        self.model_settings = model_settings
        self.threads = settings["threads"]
        self.device = resolve_device(settings["device"])
        self._embedder: CamPlusEmbedder | None = None
        self._dnsmos: DnsmosScorer | None = None
        self._nisqa: NisqaScorer | None = None

    @property
    def embedder(self) -> CamPlusEmbedder:
        if self._embedder is None:
            from msbench.models.campplus import CamPlusEmbedder

            self._embedder = CamPlusEmbedder(self.model_settings, self.threads, self.device)
        return self._embedder

    @property
    def dnsmos(self) -> DnsmosScorer:
        if self._dnsmos is None:
            from msbench.models.dnsmos import DnsmosScorer

            self._dnsmos = DnsmosScorer(self.settings["dnsmos"], self.threads, self.device)
        return self._dnsmos

    @property
    def nisqa(self) -> NisqaScorer:
        if self._nisqa is None:
            from msbench.models.nisqa import NisqaScorer

            self._nisqa = NisqaScorer(
                self.settings["nisqa"], self.model_settings, self.threads, self.device
            )
        return self._nisqa

    def extract(
        self, item: IngestedRecording, decoded: tuple[np.ndarray, int] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """(feature row, similarity record) of one recording; InputError for damaged audio.

        ``decoded``: its audio already read by :func:`load_16k` (decoded ahead).
        """
        audio, source_rate = decoded if decoded is not None else load_16k(item)
        flags = integrity_flags(audio, SAMPLE_RATE, item.segments, item.recording.audio_path)
        notes = []
        clipping = clipping_fraction(audio)
        if clipping > CLIPPING_NOTE:
            notes.append(f"clipping: {clipping:.2%} of samples at full scale")
        similarity = speaker_similarity(
            item.segments, audio, SAMPLE_RATE, self.embedder.embed, self.settings["similarity"]
        )
        if similarity.note:
            notes.append(f"similarity: {similarity.note}")
        dnsmos = self.dnsmos.score(audio)
        nisqa = self.nisqa.score(audio)
        row = {
            "recording_id": item.recording.recording_id,
            "speaker_similarity_max": similarity.maximum,
            "dnsmos_sig": dnsmos.sig,
            "dnsmos_bak": dnsmos.bak,
            "dnsmos_ovrl": dnsmos.ovrl,
            "dnsmos_p808": dnsmos.p808,
            "dnsmos_windows": dnsmos.windows,
            "nisqa_mos": nisqa.mos,
            "nisqa_noi": nisqa.noi,
            "nisqa_dis": nisqa.dis,
            "nisqa_col": nisqa.col,
            "nisqa_loud": nisqa.loud,
            "nisqa_chunks": nisqa.chunks,
            "similarity_speakers": len(similarity.speakers),
            "similarity_low_support_speakers": len(similarity.low_support),
            "clipping_fraction": clipping,
            "source_sample_rate": source_rate,
            "acoustic_notes": "; ".join(notes),
            "integrity_flags": "; ".join(flags),
        }
        matrix = {
            "recording_id": item.recording.recording_id,
            "speakers": list(similarity.speakers),
            "segments_per_speaker": similarity.segments_per_speaker,
            "matrix": [list(r) for r in similarity.matrix],
        }
        return row, matrix
