"""A system made from the reference with a seeded, known error process (``msbench simulate``).

It is what the demo's second system is, and what a user can try the comparison with before
holding a second real system. For each unit (the system's units, as ``msbench evaluate``
cuts them) and each of its reference utterances, in order:

* every word is deleted with probability ``deletion``, else replaced with probability
  ``substitution`` by a word drawn from the unit's reference words, and followed with
  probability ``insertion`` by such a word; in an utterance whose overlap exposure ``r_ov`` is
  at least ``overlap_threshold`` the three probabilities are multiplied by ``overlap_factor``
  (capped at 1), the "worse under overlap" of a real system;
* the utterance is given to another speaker of the unit with probability ``speaker_error``;
* speakers are renamed ``spk1``, ``spk2``, ... in order of first appearance (the system does
  not know the reference's labels); times are the reference's;
* a unit listed in ``refuse`` gets ``<unit>.refused`` (the runner's refusal) instead of an output.

Randomness is ``numpy.random.default_rng([seed, crc32(unit_id)])`` per unit: the same
reference and settings give byte-identical outputs, and one unit's draws do not depend on
the others. The counts of what was planted are returned (``simulated.json``).
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from msbench.scoring.units import Unit

DEFAULTS: dict[str, Any] = {
    "seed": 0,
    "deletion": 0.05,
    "substitution": 0.05,
    "insertion": 0.02,
    "speaker_error": 0.05,
    "overlap_factor": 2.0,
    "overlap_threshold": 0.5,
    "refuse": [],
}


def _word_errors(
    words: list[str], vocabulary: list[str], rates: tuple[float, float, float], rng: Any
) -> tuple[list[str], Counter[str]]:
    deletion, substitution, insertion = rates
    out, planted = [], Counter[str]()
    for word in words:
        draw = rng.random(3)
        if draw[0] < deletion:
            planted["deletions"] += 1
        elif draw[1] < substitution:
            out.append(str(vocabulary[rng.integers(len(vocabulary))]))
            planted["substitutions"] += 1
        else:
            out.append(word)
        if draw[2] < insertion:
            out.append(str(vocabulary[rng.integers(len(vocabulary))]))
            planted["insertions"] += 1
    return out, planted


def simulate_unit(
    unit: Unit, utterances: Sequence[Mapping[str, Any]], settings: Mapping[str, Any]
) -> tuple[list[dict[str, Any]], Counter[str]]:
    """The unit's SegLST segments and the counts planted (see the module docstring)."""
    rng = np.random.default_rng([int(settings["seed"]), zlib.crc32(unit.unit_id.encode())])
    vocabulary = [w for u in utterances for w in str(u.get("words") or "").split()] or ["uh"]
    speakers = list(dict.fromkeys(str(u["speaker"]) for u in utterances))
    names: dict[str, str] = {}
    segments, planted = [], Counter[str]()
    for u in utterances:
        factor = (
            float(settings["overlap_factor"])
            if float(u.get("overlap_exposure") or 0) >= float(settings["overlap_threshold"])
            else 1.0
        )
        rates = tuple(
            min(1.0, float(settings[k]) * factor) for k in ("deletion", "substitution", "insertion")
        )
        words, counts = _word_errors(str(u.get("words") or "").split(), vocabulary, rates, rng)  # type: ignore[arg-type]
        planted.update(counts)
        speaker = str(u["speaker"])
        if len(speakers) > 1 and rng.random() < float(settings["speaker_error"]):
            others = [s for s in speakers if s != speaker]
            speaker = others[int(rng.integers(len(others)))]
            planted["speaker_swaps"] += 1
        name = names.setdefault(speaker, f"spk{len(names) + 1}")
        segments.append(
            {
                "session_id": unit.unit_id,
                "speaker": name,
                "start_time": float(u["start_time"]),
                "end_time": float(u["end_time"]),
                "words": " ".join(words),
            }
        )
    return segments, planted


def unit_utterances(unit: Unit, utterances: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The unit's reference utterances: midpoint inside it, as the scorer cuts them
    (:func:`msbench.scoring.units.unit_reference`)."""
    return [
        u
        for u in utterances
        if unit.start <= (float(u["start_time"]) + float(u["end_time"])) / 2 < unit.end
    ]


def simulate_system(
    units: Sequence[Unit], utterances: Sequence[Mapping[str, Any]], settings: Mapping[str, Any]
) -> tuple[dict[str, list[dict[str, Any]] | None], dict[str, int]]:
    """Per unit id its segments (None: refused), and the planted counts summed."""
    settings = {**DEFAULTS, **settings}
    by_recording: dict[str, list[Mapping[str, Any]]] = {}
    for u in utterances:
        by_recording.setdefault(str(u["recording_id"]), []).append(u)
    refused = set(settings["refuse"])
    outputs: dict[str, list[dict[str, Any]] | None] = {}
    planted = Counter[str]()
    for unit in units:
        if unit.unit_id in refused:
            outputs[unit.unit_id] = None
            planted["refused_units"] += 1
            continue
        mine = unit_utterances(unit, by_recording.get(unit.recording_id, []))
        outputs[unit.unit_id], counts = simulate_unit(unit, mine, settings)
        planted.update(counts)
    return outputs, dict(sorted(planted.items()))
