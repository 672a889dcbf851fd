"""Counterfactual pairs: one utterance re-voiced in another speaker's voice, so the answer flips.

HEAR's reasoning items (and its CASH training data) pair an item with a copy
whose audio re-voices one utterance in another speaker's voice, same words and
timing. Here: an IR item ("the person who said *a* also said which?") becomes
``<id>_original`` and ``<id>_hallucinated``; in the second, *a* is re-voiced
into the voice of the speaker of one of the wrong options, which becomes the
answer. The scorer's Ver-A counts a pair only when both are right.

**Re-voicing** is pluggable: ``probes.counterfactual.model`` names a local
voice-conversion model folder holding ``msbench_revoicer.py``, whose
``load(folder)`` returns an object with ``convert(source, target_voice, rate)
-> samples``. No voice-conversion model with shipped weights exists on the
package registries, and signal-processing voice changes (WORLD, Praat) leave
the source speaker the nearest one for most utterances, so without a model no
pair is made. **Every conversion is checked**: kept only when CAM++ ranks the
target speaker first among the clip's voices and the cosine similarity to the
source speaker is below ``source_max_similarity``.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from msbench.errors import InputError

REVOICER_FILE = "msbench_revoicer.py"


class Revoicer(Protocol):
    def convert(self, source: np.ndarray, target_voice: np.ndarray, rate: int) -> np.ndarray: ...


def load_revoicer(folder: str | Path) -> Revoicer:
    path = Path(folder) / REVOICER_FILE
    if not path.is_file():
        raise InputError(
            folder,
            f"no {REVOICER_FILE} in the voice-conversion model folder",
            fix=f"put {REVOICER_FILE} there, defining load(folder) -> an object with "
            "convert(source, target_voice, rate) -> samples (16 kHz float32)",
        )
    spec = importlib.util.spec_from_file_location("msbench_revoicer", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.load(Path(folder))


@dataclass(frozen=True)
class Check:
    ranking: tuple[str, ...]  # speakers, most similar to the converted audio first
    source_similarity: float
    kept: bool


def check_conversion(
    embedder: Any,
    converted: np.ndarray,
    voices: Mapping[str, np.ndarray],
    target: str,
    source: str,
    source_max_similarity: float,
) -> Check:
    """CAM++ cosine of the converted audio to each speaker's reference voice."""
    embeddings = embedder.embed([converted, *voices.values()])
    similarity = dict(zip(voices, (embeddings[1:] @ embeddings[0]).tolist(), strict=True))
    ranking = tuple(sorted(similarity, key=lambda s: -similarity[s]))
    kept = ranking[0] == target and similarity[source] < source_max_similarity
    return Check(ranking, round(similarity[source], 6), kept)


def fit_length(samples: np.ndarray, length: int) -> np.ndarray:
    """Same timing as the source: cut or pad with silence to ``length`` samples.

    >>> fit_length(np.ones(3, np.float32), 5).tolist(), fit_length(np.ones(3, np.float32), 2).tolist()
    ([1.0, 1.0, 1.0, 0.0, 0.0], [1.0, 1.0])
    """
    out = np.zeros(length, dtype=np.float32)
    out[: min(length, len(samples))] = samples[:length]
    return out


def hallucinated(row: Mapping[str, Any], target: str, check: Check) -> dict[str, Any] | None:
    """The re-voiced copy of an IR row: the target's line among the options is the answer."""
    speakers = list(row["option_speakers"])
    if target not in speakers:
        return None
    base = str(row["question_id"])
    return {
        **row,
        "question_id": f"{base}_hallucinated",
        "subtask": "counterfactual_hallucinated",
        "answer_idx": speakers.index(target),
        "answer": row["options"][speakers.index(target)],
        "audio_path": f"audio/{base}_hallucinated.wav",
        "derivation": {
            **row["derivation"],
            "revoiced": {
                "from": row["derivation"]["speaker"],
                "to": target,
                "ranking": list(check.ranking),
                "source_similarity": check.source_similarity,
            },
        },
    }
