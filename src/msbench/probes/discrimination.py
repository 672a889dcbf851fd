"""Discrimination items: VC (how many voices), VL (when does this voice talk), VCD (where voices change or overlap).

Rules (each item's ``derivation`` records what its answer was derived from):

* **VC**: a speaker counts when their lines in the clip hold at least
  ``count_min_words`` words and ``count_min_seconds`` of speech; speakers whose
  lines hold no words (laughs, coughs: AMI's RTTM lists such speakers) are left
  out; a clip with a speaker between the two (words, but too little) gets no VC
  item. Options: the count and its neighbours, 1 or more.
* **VL**: ``when_speaking``: one of the speaker's lines of 1.5 s or more (seeded
  choice) is the answer span; distractors are other speakers' lines of the
  closest durations, not overlapping it; ``when_silent``: another speaker's
  line during which the speaker says nothing (seeded choice), among the
  speaker's own lines of the closest durations (1.5 s or more); the
  voice is a reference snippet of the speaker, outside every span offered.
* **VCD**: ``switch``: the middle of a non-overlapping speaker change's gap;
  ``overlap``: the middle of an overlap of at least ``overlap_min_seconds``.
  Every change is a draft (seeded order); the text-only screen keeps a subset.
  Distractors (:mod:`msbench.probes.change_moments`): false moments a timed
  transcript cannot tell from the answer (as many lines over them, as near a
  line's edge), 1 s apart, the answer's rank in time a seeded uniform draw.
  An overlap shows as two lines in a timed transcript, and a false moment under
  two lines is rare, so ``overlap`` drafts seldom get distractors.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from msbench.probes.change_moments import change_distractors
from msbench.probes.clips import Clip
from msbench.probes.evidence import Evidence, find_snippet, voice_seconds
from msbench.probes.items import Draft, count_options, distinct
from msbench.probes.text import clock, normalise
from msbench.timeline import covered, merge, to_micros, to_seconds


def speech_evidence(clip: Clip) -> list[Evidence]:
    return [Evidence(None, to_seconds(a), to_seconds(b)) for a, b in clip.timeline.speech()]


def voice_cardinality(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    counted, unclear = [], []
    for speaker in clip.timeline.speakers:
        lines = clip.lines_of(speaker)
        words = sum(len(normalise(x.words).split()) for x in lines)
        seconds = to_seconds(sum(b - a for a, b in clip.timeline.turns_by_speaker[speaker]))
        if words >= settings["count_min_words"] and seconds >= settings["count_min_seconds"]:
            counted.append(speaker)
        elif words:
            unclear.append(speaker)
    if unclear or len(counted) < 2:
        return []
    n = len(counted)
    return [
        Draft(
            subtask="voice_count",
            question="How many distinct speakers talk in this clip?",
            answer=str(n),
            distractors=count_options(n, rng),
            evidence=speech_evidence(clip),
            derivation={
                "speakers": counted,
                "count": n,
                "without_words": sorted(set(clip.timeline.speakers) - set(counted)),
            },
        )
    ]


def _span(clip: Clip, start: float, end: float) -> str:
    return f"from {clock(start - clip.start)} to {clock(end - clip.start)}"


def voice_localisation(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    drafts = []
    for speaker in rng.sample(clip.speaking, len(clip.speaking)):
        lines = [x for x in clip.lines_of(speaker) if x.seconds >= 1.5]
        if not lines:
            continue
        answer = rng.choice(lines)  # not the longest: a reader of durations would find it
        tolerance = float(settings.get("truth_tolerance_seconds", 0.25))
        others = sorted(
            (
                x
                for x in clip.lines
                if x.speaker != speaker
                and x.seconds >= 1.0
                and (x.end <= answer.start or x.start >= answer.end)
                and _talks(clip, speaker, x.start, x.end) <= tolerance
            ),
            key=lambda x: (abs(x.seconds - answer.seconds), x.start),
        )
        evidence = [Evidence(speaker, answer.start, answer.end)]
        snippet = find_snippet(clip, speaker, evidence, [], voice_seconds(settings))
        options = distinct(
            _span(clip, answer.start, answer.end), [_span(clip, x.start, x.end) for x in others], 4
        )
        if snippet is not None and len(options) >= 2:
            question = "After the clip you hear one voice. When does this speaker talk in the clip?"
            derivation = {"speaker": speaker, "start": answer.start, "end": answer.end}
            drafts.append(
                Draft(
                    subtask="when_speaking",
                    question=question,
                    answer=_span(clip, answer.start, answer.end),
                    distractors=options,
                    evidence=evidence,
                    derivation=derivation,
                    reference=snippet,
                )
            )
        drafts += _when_silent(clip, speaker, lines, voice_seconds(settings), rng)
    return drafts


def _talks(clip: Clip, speaker: str, start: float, end: float) -> float:
    """Seconds ``speaker`` talks in ``[start, end)`` (the span a distractor offers)."""
    spans = list(clip.timeline.turns_by_speaker.get(speaker, ()))
    return covered((to_micros(start), to_micros(end)), spans) / 1e6


def _when_silent(
    clip: Clip, speaker: str, lines: list[Any], seconds: tuple[float, float], rng: random.Random
) -> list[Draft]:
    """VL's other half: the span (another speaker's line) where this speaker does not talk."""
    mine = list(clip.timeline.turns_by_speaker[speaker])
    silent = [
        x
        for x in clip.lines
        if x.speaker != speaker
        and x.seconds >= 1.0
        and covered((to_micros(x.start), to_micros(x.end)), mine) == 0
    ]
    if not silent:
        return []
    answer = rng.choice(silent)  # not the longest: a reader of durations would find it
    heard = [Evidence(answer.speaker, answer.start, answer.end)]
    snippet = find_snippet(clip, speaker, heard, [], seconds)
    if snippet is None:
        return []
    # the speaker's other lines are the wrong options; the voice comes from none of them
    free = [x for x in lines if x.end <= snippet.start or x.start >= snippet.end]
    offered = sorted(free, key=lambda x: (abs(x.seconds - answer.seconds), x.start))[:3]
    evidence = [Evidence(speaker, x.start, x.end) for x in offered]
    evidence.append(Evidence(answer.speaker, answer.start, answer.end))
    spans = [_span(clip, x.start, x.end) for x in offered]
    options = distinct(_span(clip, answer.start, answer.end), spans, 3)
    if len(options) < 2:
        return []
    question = "After the clip you hear one voice. When does this speaker NOT talk in the clip?"
    derivation = {"speaker": speaker, "start": answer.start, "end": answer.end, "silent": True}
    draft = Draft(
        subtask="when_silent",
        question=question,
        answer=_span(clip, answer.start, answer.end),
        distractors=options,
        evidence=evidence,
        derivation=derivation,
        reference=snippet,
    )
    return [draft]


#: VCD's distractors per item (up to): 4 options.
VCD_DISTRACTORS = 3


def voice_change(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    tolerance = float(settings.get("truth_tolerance_seconds", 0.25))
    switches = [  # a change of one voice to another within the tolerance of its middle
        (to_seconds(a), to_seconds(b))
        for a, b in clip.timeline.switches()
        if b - a <= to_micros(2 * tolerance)
    ]
    overlaps = [
        (to_seconds(a), to_seconds(b))
        for a, b in merge(clip.timeline.overlap())
        if b - a >= to_micros(settings["overlap_min_seconds"])
    ]
    drafts = []
    # every change is offered (seeded order): the text-only screen keeps those whose answers'
    # ranks in time balance; one overlap (a timed transcript shows it: see the module docstring)
    for kind, spans in (("switch", switches), ("overlap", overlaps)):
        for start, end in rng.sample(spans, len(spans) if kind == "switch" else min(len(spans), 1)):
            middle = round((start + end) / 2, 6)
            points = change_distractors(clip, kind, middle, VCD_DISTRACTORS, tolerance, rng)
            answer = f"at {clock(middle - clip.start)}"
            options = distinct(answer, [f"at {clock(p - clip.start)}" for p in points], 4)
            if len(options) < 2:
                continue
            if kind == "switch":
                question = (
                    "At which moment does the speaker change (one voice stops, another starts)?"
                )
                evidence = [Evidence(None, max(clip.start, start - 0.5), min(clip.end, end + 0.5))]
            else:
                question = "At which moment do two voices speak at the same time?"
                evidence = [Evidence(None, start, end)]
            derivation = {"kind": kind, "start": start, "end": end, "time": middle}
            drafts.append(
                Draft(
                    subtask=kind,
                    question=question,
                    answer=answer,
                    distractors=options,
                    evidence=evidence,
                    derivation=derivation,
                )
            )
    return drafts
