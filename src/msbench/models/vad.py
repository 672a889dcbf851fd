"""Speech regions of a 16 kHz signal with Silero VAD (MIT; its ONNX model ships in the wheel)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np

SAMPLE_RATE = 16000


@cache
def _model() -> Any:
    from silero_vad import load_silero_vad

    return load_silero_vad(onnx=True)


def speech_regions(audio: np.ndarray, settings: Mapping[str, Any]) -> list[tuple[float, float]]:
    """``[(start, end)]`` seconds of speech: ``threshold``, ``min_speech_seconds``, ``min_silence_seconds``."""
    import torch
    from silero_vad import get_speech_timestamps

    if len(audio) < SAMPLE_RATE // 10:
        return []
    stamps = get_speech_timestamps(
        torch.from_numpy(np.ascontiguousarray(audio, dtype=np.float32)),
        _model(),
        sampling_rate=SAMPLE_RATE,
        threshold=float(settings["threshold"]),
        min_speech_duration_ms=int(1000 * float(settings["min_speech_seconds"])),
        min_silence_duration_ms=int(1000 * float(settings["min_silence_seconds"])),
        speech_pad_ms=int(1000 * float(settings["pad_seconds"])),
    )
    return [(s["start"] / SAMPLE_RATE, s["end"] / SAMPLE_RATE) for s in stamps]
