"""Turn IR items into counterfactual pairs with a re-voicer (rules in :mod:`msbench.probes.counterfactual`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from msbench.probes.assemble import RATE, recording_span
from msbench.probes.clips import Clip
from msbench.probes.counterfactual import Revoicer, check_conversion, fit_length, hallucinated
from msbench.probes.evidence import find_snippet
from msbench.probes.generate import Generated
from msbench.probes.items import Draft


@dataclass(frozen=True)
class Revoicing:
    """The re-voicer, the CAM++ embedder that checks it, and the rules' numbers."""

    revoicer: Revoicer
    embedder: Any
    source_max_similarity: float
    voice_seconds: tuple[float, float]


def reference_voices(
    clip: Clip,
    draft: Draft,
    recordings: Mapping[str, Mapping[str, Any]],
    seconds: tuple[float, float],
) -> dict[str, np.ndarray]:
    voices = {}
    for speaker in clip.speaking:
        snippet = find_snippet(clip, speaker, draft.evidence, draft.quoted, seconds)
        if snippet is not None:
            voices[speaker] = recording_span(
                recordings, snippet.recording_id, snippet.start, snippet.end
            )
    return voices


def pair_for(
    row: Mapping[str, Any],
    draft: Draft,
    clip: Clip,
    recordings: Mapping[str, Mapping[str, Any]],
    tools: Revoicing,
    stats: Counter[str],
) -> tuple[dict[str, Any], dict[str, Any], tuple[float, np.ndarray]] | None:
    """``(original, hallucinated, (start, re-voiced samples))`` or None (reason counted)."""
    source_speaker, quoted = row["derivation"]["speaker"], draft.evidence[0]
    voices = reference_voices(clip, draft, recordings, tools.voice_seconds)
    targets = [
        s for s in dict.fromkeys(row["option_speakers"]) if s != source_speaker and s in voices
    ]
    if source_speaker not in voices or not targets:
        stats["no reference voice for the source or a target speaker"] += 1
        return None
    source = recording_span(recordings, clip.recording_id, quoted.start, quoted.end)
    converted = fit_length(
        np.asarray(tools.revoicer.convert(source, voices[targets[0]], RATE), dtype=np.float32),
        len(source),
    )
    check = check_conversion(
        tools.embedder, converted, voices, targets[0], source_speaker, tools.source_max_similarity
    )
    if not check.kept:
        stats["rejected by the CAM++ check"] += 1
        return None
    fake = hallucinated(row, targets[0], check)
    if fake is None:
        stats["target speaker not among the options"] += 1
        return None
    base = str(row["question_id"])
    original = {
        **row,
        "question_id": f"{base}_original",
        "subtask": "counterfactual_original",
        "audio_path": f"audio/{base}_original.wav",
    }
    return original, fake, (quoted.start, converted)


def make_pairs(
    generated: Generated,
    clips: Sequence[Clip],
    recordings: Mapping[str, Mapping[str, Any]],
    tools: Revoicing,
) -> Counter[str]:
    """Replace each IR item that gets a checked conversion by its pair; the reasons of the rest."""
    by_clip = {clip.clip_id: clip for clip in clips}
    stats: Counter[str] = Counter()
    rows, drafts = [], []
    for row, draft in zip(generated.rows, generated.drafts, strict=True):
        pair = (
            pair_for(row, draft, by_clip[row["clip_id"]], recordings, tools, stats)
            if row["subtaxonomy"] == "IR"
            else None
        )
        if pair is None:
            rows.append(row)
            drafts.append(draft)
            continue
        original, fake, edit = pair
        rows += [original, fake]
        drafts += [draft, draft]
        generated.clip_edits[fake["question_id"]] = edit
        stats["pairs"] += 1
    generated.rows, generated.drafts = rows, drafts
    return stats


def counterfactual_pairs(
    generated: Any, clips: list[Any], rows: Any, resolved: Mapping[str, Any]
) -> Any:
    """IR items re-voiced by the configured model, each checked with CAM++."""
    from msbench.models.campplus import CamPlusEmbedder
    from msbench.probes.counterfactual import load_revoicer
    from msbench.probes.evidence import voice_seconds

    probes = resolved["probes"]
    section = probes["counterfactual"]
    tools = Revoicing(
        load_revoicer(section["model"]),
        CamPlusEmbedder(resolved["models"], 1, "cpu"),
        section["source_max_similarity"],
        voice_seconds(probes),
    )
    return make_pairs(generated, clips, rows, tools)
