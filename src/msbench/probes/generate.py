"""Probe items of a set of recordings: clips -> drafts -> labelled, filtered, placed rows.

Per clip and family at most ``per_clip`` items are kept, in the family's
seeded order (``random.Random("<seed>:<clip_id>:<family>")``). A draft is
dropped, each reason counted in the summary, when:

1. it repeats the option set and answer of an earlier item of its clip;
2. another of its options is also true by the annotation, or its answer is not
   (:mod:`msbench.probes.truth`, with ``truth_tolerance_seconds``);
3. its overlap share falls in the margin (:mod:`msbench.probes.evidence`);
4. with ``text_only: drop``, a text-only reader would take its family and task
   above chance + ``text_only_margin`` (:class:`msbench.probes.budget.TextOnlyBudget`):
   the items no reader beats chance on are admitted first, then the others
   in seeded order while the budget has room (the general rule: whatever
   property picks an answer, the readers that copy it stay near chance).

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
from msbench.probes.budget import TextOnlyBudget, solved_share
from msbench.probes.clips import Clip
from msbench.probes.evidence import overlap_label, overlap_share
from msbench.probes.families import FAMILIES
from msbench.probes.items import LETTERS, Draft, Placer
from msbench.probes.lines import unquoted_counts
from msbench.probes.textonly import BASELINES, Said
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
    lines = [
        Said(x.words, round(x.start - clip.start, 6), round(x.end - clip.start, 6))
        for x in clip.lines
    ]
    return {
        name: round(solved_share(b, options, 0, draft.question, lines), 6)
        for name, b in BASELINES.items()
    }


def _why_not(draft: Draft, clip: Clip, settings: Mapping[str, Any]) -> tuple[str, str | None]:
    """``(reason to drop or "", overlap label)`` of one draft, before the text-only rule."""
    truth = true_options(draft, clip, settings, FAMILIES[draft.family].truth)
    if truth != [0]:
        reason = "its answer is not true" if 0 not in truth else "another option is also true"
        return reason, None
    label = overlap_label(overlap_share(clip, draft.evidence), settings["overlap"])
    if label is None:
        return "overlap share in the margin", None
    return "", label


@dataclass
class Candidate:
    """A draft that passed truth, overlap and repetition: where it sits and what readers get."""

    clip: int
    family: str
    order: int  # its place in the family's seeded order
    draft: Draft
    label: str
    solved: dict[str, float]

    @property
    def task(self) -> str:
        return f"{self.family}/{FAMILIES[self.family].tasks[self.draft.subtask]}"

    @property
    def free(self) -> bool:
        """No reader does better than chance on it."""
        chance = 1 / (1 + len(self.draft.distractors))
        return all(share <= chance + 1e-9 for share in self.solved.values())


def _candidates(
    clips: Sequence[Clip], settings: Mapping[str, Any], result: Generated
) -> list[Candidate]:
    """Every draft that passes the annotation's rules, a clip's repeats left out."""
    found = []
    for k, clip in enumerate(clips):
        offered: set[tuple[frozenset[str], str]] = set()  # a clip's option sets and answers
        for family in settings["families"]:
            rng = random.Random(f"{settings['seed']}:{clip.clip_id}:{family}")
            for order, draft in enumerate(FAMILIES[family].drafts(clip, settings, rng)):
                key = (frozenset([draft.answer, *draft.distractors]), draft.answer)
                if key in offered and not draft.voices:
                    result.dropped[f"{family}: repeats the options and answer of another item"] += 1
                    continue
                reason, label = _why_not(draft, clip, settings)
                if reason:
                    result.dropped[f"{family}: {reason}"] += 1
                    continue
                offered.add(key)
                found.append(Candidate(k, family, order, draft, str(label), text_only(draft, clip)))
    return found


def _admitted(
    candidates: list[Candidate], settings: Mapping[str, Any], result: Generated
) -> list[Candidate]:
    """The kept items: the most items per family such that every text-only reader stays
    within ``text_only_margin`` of chance in every task, and at most ``per_clip`` per clip.

    An integer program per family (HiGHS, through scipy's ``milp``): maximise the
    items kept (earlier items in seeded order preferred by a weight below one
    item) subject to, for each task and reader ``b``, ``sum x_i (share_ib -
    chance_i - margin) <= 0``, and ``sum x_i <= per_clip`` per clip. With
    ``text_only: keep`` only the per-clip limit applies.
    """
    margin = float(settings.get("text_only_margin", 0.05))
    chosen: list[Candidate] = []
    for family in settings["families"]:
        mine = [c for c in candidates if c.family == family]
        held = max(0.0, margin - READER_ROOM)
        picked = _solve(mine, held, settings["per_clip"], settings["text_only"] == "drop")
        for c, keep in zip(mine, picked, strict=True):
            budget = result.text_only.setdefault(c.task, TextOnlyBudget(margin))
            if keep:
                budget.add(c.solved, 1 + len(c.draft.distractors))
                chosen.append(c)
                continue
            best = max(c.solved, key=lambda b: c.solved[b])
            result.dropped[f"{family}: text-only: {best} would be above chance"] += 1
    return sorted(chosen, key=lambda c: (c.clip, settings["families"].index(c.family), c.order))


#: msbench's readers are held this far inside the margin, so that a reader copying the same
#: property in another way (the tests' own, coded apart) stays within it too.
READER_ROOM = 0.02


def _solve(mine: list[Candidate], margin: float, per_clip: int, readers: bool) -> list[bool]:
    import numpy as np
    from scipy.optimize import Bounds, LinearConstraint, milp

    if not mine:
        return []
    rows, upper = [], []
    for clip in sorted({c.clip for c in mine}):
        rows.append([1.0 if c.clip == clip else 0.0 for c in mine])
        upper.append(float(per_clip))
    if readers:
        for task in sorted({c.task for c in mine}):
            for reader in sorted({b for c in mine for b in c.solved}):
                rows.append(
                    [
                        c.solved.get(reader, 0.0) - 1 / (1 + len(c.draft.distractors)) - margin
                        if c.task == task
                        else 0.0
                        for c in mine
                    ]
                )
                upper.append(1e-9)
    n = len(mine)
    weights = -(1.0 + np.array([(n - k) / (n * 1000.0) for k in range(n)]))  # earlier first
    solved = milp(
        weights,
        constraints=LinearConstraint(np.array(rows), -np.inf, np.array(upper)),
        integrality=np.ones(n),
        bounds=Bounds(0, 1),
    )
    if solved.x is None:
        return [False] * n
    return [bool(round(v)) for v in solved.x]


def generate(
    clips: Sequence[Clip], sources: Mapping[str, str], settings: Mapping[str, Any]
) -> Generated:
    result = Generated()
    placer = Placer(settings["seed"])
    result.unquoted = unquoted_counts(clips)
    numbers: Counter[tuple[int, str]] = Counter()
    for c in _admitted(_candidates(clips, settings, result), settings, result):
        clip, draft = clips[c.clip], c.draft
        flag = any(v > 0.5 for v in c.solved.values())
        result.flagged[c.family] += flag
        numbers[(c.clip, c.family)] += 1
        question_id = f"{clip.clip_id}__{c.family}{numbers[(c.clip, c.family)]:02d}"
        row = item_row(clip, draft, placer, question_id, sources.get(clip.recording_id, ""))
        row["overlap"] = HEAR_OVERLAP[c.label]
        row["overlap_share"] = round(overlap_share(clip, draft.evidence), 6)
        row.update(text_only=c.solved, text_only_flag=flag, seed=settings["seed"])
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
