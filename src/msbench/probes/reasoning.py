"""HEAR's reasoning axis: identity (IR), temporal order (TR) and quantities (QR) over the lines.

* **IR**: "the person who said *a* also said which?": another line of *a*'s speaker.
* **TR** ``first``: the first line of the speaker of a quoted later line (when
  their very first line in the clip is quotable), with at least one other line
  of theirs among the options (otherwise the item asks who, not when);
  ``next``: what the speaker of
  *a* said next (their very next line, when quotable); the other
  speakers' lines right after *a* come first among the distractors.
* **QR** ``word``: how many distinct speakers said a content word (whole-token
  match), among the most widely said, preferring a word said on more lines than
  by speakers (so that counting lines does not give the answer); ``rank``: the line of the speaker with the k-th longest total speech,
  when it is at least 1 s from the next rank on either side.

Lines and distractors: :mod:`msbench.probes.lines`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from msbench.probes.clips import Clip, Line
from msbench.probes.discrimination import speech_evidence
from msbench.probes.evidence import Evidence
from msbench.probes.items import Draft, count_options, distinct
from msbench.probes.lines import distractor_lines, evidence_of, quotable, shown, speakers_of
from msbench.probes.text import content_words, normalise, quote
from msbench.timeline import to_seconds


def identity(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    drafts = []
    for a in rng.sample(quotable(clip), len(quotable(clip))):
        same = [x for x in quotable(clip, a.speaker) if normalise(x.words) != normalise(a.words)]
        if not same:
            continue
        answer = rng.choice(same)
        options = distractor_lines(clip, answer, a.speaker)
        if len(options) < 2:
            continue
        question = f"The person who said {quote(a.words)} also said which of these?"
        drafts.append(
            Draft(
                subtask="same_speaker",
                question=question,
                answer=shown(answer),
                distractors=options,
                evidence=evidence_of(a, answer),
                derivation={"speaker": a.speaker, "quoted": a.words, "line": answer.words},
                quoted=[a.words],
                speakers=speakers_of(clip, [shown(answer), *options]),
            )
        )
    return drafts


def temporal(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    drafts = []
    for speaker in rng.sample(clip.speaking, len(clip.speaking)):
        spoken = [x for x in clip.lines_of(speaker) if x.words.strip()]
        lines = quotable(clip, speaker)
        if len(lines) >= 2 and spoken[0] == lines[0]:  # "first": their very first line
            drafts += _first_line(clip, speaker, lines)
        successive = [
            (a, b) for a, b in zip(spoken, spoken[1:], strict=False) if a in lines and b in lines
        ]
        if successive:  # "next": their very next line
            drafts += _next_line(clip, speaker, *rng.choice(successive))
    return drafts


def _first_line(clip: Clip, speaker: str, lines: list[Line]) -> list[Draft]:
    first, last = lines[0], lines[-1]
    own = distinct(shown(first), [shown(x) for x in lines[1:-1]], 2)
    if not own:  # the order among the speaker's own lines is what is asked
        return []
    options = distinct(shown(first), own + distractor_lines(clip, first, speaker), 4)
    if len(options) < 2 or not set(own) & set(options):
        return []
    question = (
        f"The person who said {quote(last.words)}: which of these did they say first in the clip?"
    )
    draft = Draft(
        subtask="first",
        question=question,
        answer=shown(first),
        distractors=options,
        evidence=evidence_of(*lines),
        derivation={"speaker": speaker, "line": first.words, "order": "first"},
        quoted=[last.words],
        speakers=speakers_of(clip, [shown(first), *options]),
    )
    return [draft]


def _next_line(clip: Clip, speaker: str, a: Line, following: Line) -> list[Draft]:
    adjacent = [x for x in quotable(clip) if x.start >= a.end and x.speaker != speaker][:2]
    options = distractor_lines(clip, following, speaker, adjacent)
    if len(options) < 2:
        return []
    question = f"What did the person who said {quote(a.words)} say next?"
    draft = Draft(
        subtask="next",
        question=question,
        answer=shown(following),
        distractors=options,
        evidence=evidence_of(a, following),
        derivation={
            "speaker": speaker,
            "quoted": a.words,
            "line": following.words,
            "order": "next",
        },
        quoted=[a.words],
        speakers=speakers_of(clip, [shown(following), *options]),
    )
    return [draft]


def _word_speakers(clip: Clip) -> dict[str, set[str]]:
    said: dict[str, set[str]] = {}
    for line in clip.lines:
        for word in content_words(line.words):
            said.setdefault(word, set()).add(line.speaker)
    return said


def quantitative(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    drafts = []
    said = _word_speakers(clip)
    if said:
        lines_with = {w: sum(w in content_words(x.words) for x in clip.lines) for w in said}
        # a word whose count of lines is not its count of speakers: counting lines misleads
        telling = [w for w in said if lines_with[w] != len(said[w]) and len(said[w]) >= 2]
        ranked = sorted(telling or said, key=lambda w: (-len(said[w]), w))
        word = rng.choice([w for w in ranked if len(said[w]) == len(said[ranked[0]])])
        n = len(said[word])
        evidence = [
            Evidence(x.speaker, x.start, x.end)
            for x in clip.lines
            if word in content_words(x.words)
        ]
        drafts.append(
            Draft(
                subtask="word_count",
                question=f'How many distinct speakers say the word "{word}" in this clip?',
                answer=str(n),
                distractors=count_options(n, rng),
                evidence=evidence,
                derivation={"word": word, "speakers": sorted(said[word]), "count": n},
            )
        )
    totals = sorted(
        ((sum(b - a for a, b in clip.timeline.turns_by_speaker[s]), s) for s in clip.speaking),
        reverse=True,
    )
    for k, name in ((1, "the longest"), (2, "the second longest")):
        if len(totals) <= k - 1 or not quotable(clip, totals[k - 1][1]):
            continue
        neighbours = [totals[i][0] for i in (k - 2, k) if 0 <= i < len(totals)]
        if any(abs(totals[k - 1][0] - t) < 1_000_000 for t in neighbours):
            continue
        speaker = totals[k - 1][1]
        answer = rng.choice(quotable(clip, speaker))
        options = distractor_lines(clip, answer, speaker)
        if len(options) >= 2:
            question = f"Which line is by the speaker who talks {name} in total in this clip?"
            derivation = {
                "speaker": speaker,
                "rank": k,
                "seconds": {s: to_seconds(t) for t, s in totals},
            }
            drafts.append(
                Draft(
                    subtask=f"rank_{k}",
                    question=question,
                    answer=shown(answer),
                    distractors=options,
                    evidence=speech_evidence(clip),
                    derivation=derivation,
                    speakers=speakers_of(clip, [shown(answer), *options]),
                )
            )
    return drafts
