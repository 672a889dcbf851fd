"""Probe items of a set of recordings: clips -> drafts -> labelled, filtered, placed rows.

Per clip and family at most ``per_clip`` items are kept, in the family's
seeded order (``random.Random("<seed>:<clip_id>:<family>")``). A draft is
dropped when its overlap share falls in the margin (:mod:`msbench.probes.evidence`)
or, with ``text_only: drop``, when a text-only baseline solves it
(:mod:`msbench.probes.textonly`); the counts are in the summary.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from msbench.probes.assemble import LETTER_CODE
from msbench.probes.clips import Clip
from msbench.probes.evidence import overlap_label, overlap_share
from msbench.probes.families import FAMILIES
from msbench.probes.items import LETTERS, Draft, Placer
from msbench.probes.textonly import BASELINES, solved_share

GENERATOR_VERSION = "msbench-probes-1"


@dataclass
class Generated:
    rows: list[dict[str, Any]] = field(default_factory=list)
    drafts: list[Draft] = field(default_factory=list)  # the kept rows' drafts (audio assembly)
    dropped: Counter[str] = field(default_factory=Counter)
    flagged: Counter[str] = field(default_factory=Counter)
    clip_edits: dict[str, tuple[float, Any]] = field(default_factory=dict)  # re-voiced spans
    pairs: Counter[str] = field(default_factory=Counter)  # counterfactual pairs and why not


def text_only(draft: Draft, clip: Clip) -> dict[str, float]:
    options = [draft.answer, *draft.distractors]
    if draft.voices:  # options are labels in display order: any text-only pick is one letter
        return dict.fromkeys(BASELINES, round(1 / len(options), 6))
    lines = [x.words for x in clip.lines]
    return {
        name: round(solved_share(b, options, 0, draft.question, lines), 6)
        for name, b in BASELINES.items()
    }


def generate(
    clips: Sequence[Clip], sources: Mapping[str, str], settings: Mapping[str, Any]
) -> Generated:
    result = Generated()
    placer = Placer(settings["seed"])
    for clip in clips:
        for family in settings["families"]:
            rng = random.Random(f"{settings['seed']}:{clip.clip_id}:{family}")
            kept = 0
            for draft in FAMILIES[family].draft(clip, settings, rng):
                if kept == settings["per_clip"]:
                    break
                share = overlap_share(clip, draft.evidence)
                label = overlap_label(share, settings["overlap"])
                if label is None:
                    result.dropped[f"{family}: overlap share in the margin"] += 1
                    continue
                solved = text_only(draft, clip)
                flag = any(v > 0.5 for v in solved.values())
                if flag:
                    result.flagged[family] += 1
                    if settings["text_only"] == "drop":
                        result.dropped[f"{family}: solved text-only"] += 1
                        continue
                kept += 1
                question_id = f"{clip.clip_id}__{family}{kept:02d}"
                row = item_row(clip, draft, placer, question_id, sources.get(clip.recording_id, ""))
                row.update(overlap=label == "overlap", overlap_share=round(share, 6),
                           text_only=solved, text_only_flag=flag, seed=settings["seed"])  # fmt: skip
                result.rows.append(row)
                result.drafts.append(draft)
    return result


def item_row(
    clip: Clip, draft: Draft, placer: Placer, question_id: str, source: str
) -> dict[str, Any]:
    order, answer_idx = placer.place(draft, question_id)
    values = [draft.answer, *draft.distractors]
    options = [values[i] for i in order]
    voices = [draft.voices[i] for i in order] if draft.voices else []
    taxonomy, task = FAMILIES[draft.family].axis, FAMILIES[draft.family].task
    return {
        "question_id": question_id,
        "clip_id": clip.clip_id,
        "source_corpus": source,
        "taxonomy": taxonomy,
        "subtaxonomy": draft.family,
        "task_name": f"{task}:{draft.subtask}",
        "question": draft.question,
        "options": [f"Voice {LETTERS[k]}" for k in range(len(voices))] if voices else options,
        "answer_idx": answer_idx,
        "audio_path": f"audio/{question_id}.wav",
        "recording_id": clip.recording_id,
        "clip_start": clip.start,
        "clip_end": clip.end,
        "conditions": dict(clip.labels),
        "profile": "-".join(str(clip.labels.get(a)) for a in "POSTN")
        if all(clip.labels.values())
        else None,
        "evidence": [
            {"speaker": e.speaker, "start": e.start, "end": e.end} for e in draft.evidence
        ],
        "reference_voice": draft.reference.provenance() if draft.reference else None,
        "option_voices": [v.provenance() for v in voices],
        "option_speakers": [draft.speakers[i] for i in order] if draft.speakers else [],
        "answer": options[answer_idx] if not voices else voices[answer_idx].speaker,
        "derivation": draft.derivation,
        "announcement": LETTER_CODE,
        "generator_version": GENERATOR_VERSION,
    }
