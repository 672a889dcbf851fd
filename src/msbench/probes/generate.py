"""Probe items of a set of recordings: clips -> drafts -> labelled, filtered, placed rows.

Per clip and family at most ``per_clip`` items are kept, in the family's
seeded order (``random.Random("<seed>:<clip_id>:<family>")``). A draft is
dropped, each reason counted in the summary, when:

1. another of its options is also true by the annotation, or its answer is not
   (:mod:`msbench.probes.truth`, with ``truth_tolerance_seconds``);
2. its overlap share falls in the margin (:mod:`msbench.probes.evidence`);
3. with ``text_only: drop``, a text-only baseline would take its family above
   chance + ``text_only_margin`` (:class:`msbench.probes.textonly.TextOnlyBudget`).

Rows carry HEAR's fields in HEAR's conventions (:mod:`msbench.probes.families`:
``taxonomy`` the axis, ``task_name`` HEAR's, ``overlap`` ``"overlap"`` or
``"nonoverlap"``) and msbench's own beside them.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from msbench.probes.assemble import announcement
from msbench.probes.clips import Clip
from msbench.probes.evidence import overlap_label, overlap_share
from msbench.probes.families import FAMILIES
from msbench.probes.items import LETTERS, Draft, Placer
from msbench.probes.lines import unquoted_counts
from msbench.probes.textonly import BASELINES, TextOnlyBudget, solved_share
from msbench.probes.truth import true_options

GENERATOR_VERSION = "msbench-probes-2"
#: HEAR's overlap field for msbench's labels.
HEAR_OVERLAP = {"overlap": "overlap", "non-overlap": "nonoverlap"}


@dataclass
class Generated:
    rows: list[dict[str, Any]] = field(default_factory=list)
    drafts: list[Draft] = field(default_factory=list)  # the kept rows' drafts (audio assembly)
    dropped: Counter[str] = field(default_factory=Counter)
    unquoted: Counter[str] = field(default_factory=Counter)  # lines never quoted, by rule
    flagged: Counter[str] = field(default_factory=Counter)
    clip_edits: dict[str, tuple[float, Any]] = field(default_factory=dict)  # re-voiced spans
    pairs: Counter[str] = field(default_factory=Counter)  # counterfactual pairs and why not
    text_only: dict[str, TextOnlyBudget] = field(default_factory=dict)  # per family


def text_only(draft: Draft, clip: Clip) -> dict[str, float]:
    """Each baseline's share of the draft (answer at index 0) over all option orders."""
    options = [draft.answer, *draft.distractors]
    if draft.voices:  # options are labels in display order: any text-only pick is one letter
        return dict.fromkeys(BASELINES, round(1 / len(options), 6))
    lines = [x.words for x in clip.lines]
    return {
        name: round(solved_share(b, options, 0, draft.question, lines), 6)
        for name, b in BASELINES.items()
    }


def _why_not(
    draft: Draft, clip: Clip, settings: Mapping[str, Any], budget: TextOnlyBudget
) -> tuple[str, str | None, dict[str, float]]:
    """``(reason to drop or "", overlap label, text-only shares)`` of one draft."""
    truth = true_options(draft, clip, settings)
    if truth != [0]:
        reason = "its answer is not true" if 0 not in truth else "another option is also true"
        return reason, None, {}
    label = overlap_label(overlap_share(clip, draft.evidence), settings["overlap"])
    if label is None:
        return "overlap share in the margin", None, {}
    solved = text_only(draft, clip)
    n = 1 + len(draft.distractors)
    if settings["text_only"] == "drop" and not budget.admits(solved, n):
        best = max(solved, key=lambda b: solved[b])
        return f"text-only: {best} would be above chance", label, solved
    return "", label, solved


def generate(
    clips: Sequence[Clip], sources: Mapping[str, str], settings: Mapping[str, Any]
) -> Generated:
    result = Generated()
    placer = Placer(settings["seed"])
    margin = float(settings.get("text_only_margin", 0.05))
    result.unquoted = unquoted_counts(clips)
    for clip in clips:
        for family in settings["families"]:
            budget = result.text_only.setdefault(family, TextOnlyBudget(margin))
            rng = random.Random(f"{settings['seed']}:{clip.clip_id}:{family}")
            kept = 0
            for draft in FAMILIES[family].draft(clip, settings, rng):
                if kept == settings["per_clip"]:
                    break
                reason, label, solved = _why_not(draft, clip, settings, budget)
                if reason:
                    result.dropped[f"{family}: {reason}"] += 1
                    continue
                n = 1 + len(draft.distractors)
                budget.add(solved, n)
                flag = any(v > 0.5 for v in solved.values())
                result.flagged[family] += flag
                kept += 1
                question_id = f"{clip.clip_id}__{family}{kept:02d}"
                row = item_row(clip, draft, placer, question_id, sources.get(clip.recording_id, ""))
                row["overlap"] = HEAR_OVERLAP[str(label)]
                row["overlap_share"] = round(overlap_share(clip, draft.evidence), 6)
                row.update(text_only=solved, text_only_flag=flag, seed=settings["seed"])
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
    family = FAMILIES[draft.family]
    return {
        "question_id": question_id,
        "clip_id": clip.clip_id,
        "source_corpus": source,
        "taxonomy": family.axis,
        "subtaxonomy": draft.family,
        "task_name": family.tasks[draft.subtask],
        "subtask": draft.subtask,
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
        "announcement": announcement(bool(draft.reference), len(voices)),
        "generator_version": GENERATOR_VERSION,
    }
