"""Attribution (CVA, VCA) and reasoning (IR, TR, QR) items: binding lines to voices.

A *quotable* line has at least 3 words and lasts at least 1 s; options show a
line's first 16 words. Distractor lines come from other speakers of the clip,
the answer's length class first, then the others, distinct after
normalisation. Rules per family:

* **CVA**: a quoted line; the options are voices (reference snippets): the
  line's speaker, then other speakers of the clip, then of the same recording.
* **VCA**: a speaker's voice; the answer is one of their lines.
* **IR**: "the person who said *a* also said which?": another line of *a*'s speaker.
* **TR** ``first``: the first line of the speaker of a quoted later line (when
  their very first line in the clip is quotable); ``next``: what the speaker of
  *a* said next (their very next line, when quotable); the other
  speakers' lines right after *a* come first among the distractors.
* **QR** ``word``: how many distinct speakers said a content word (whole-token
  match); ``rank``: the line of the speaker with the k-th longest total speech,
  when it is at least 1 s from the next rank on either side.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from msbench.probes.clips import Clip, Line
from msbench.probes.discrimination import speech_evidence
from msbench.probes.evidence import Evidence, find_snippet
from msbench.probes.items import Draft, count_options, distinct
from msbench.probes.text import content_words, length_class, normalise, quote
from msbench.timeline import to_seconds


def shown(line: Line) -> str:
    return quote(line.words).strip('"')


def quotable(clip: Clip, speaker: str | None = None) -> list[Line]:
    """Lines of 3+ words and 1+ s whose shown text no other speaker of the clip says too."""
    said: dict[str, set[str]] = {}
    for x in clip.lines:
        said.setdefault(normalise(shown(x)), set()).add(x.speaker)
    return [
        x for x in clip.lines
        if len(normalise(x.words).split()) >= 3 and x.seconds >= 1.0 and speaker in (None, x.speaker)
        and len(said[normalise(shown(x))]) == 1
    ]  # fmt: skip


def distractor_lines(
    clip: Clip, answer: Line, exclude: str, first: Sequence[Line] = ()
) -> list[str]:
    others = [x for x in quotable(clip) if x.speaker != exclude]
    same = [x for x in others if length_class(x.words) == length_class(answer.words)]
    rest = [x for x in others if x not in same]
    return distinct(shown(answer), [shown(x) for x in (*first, *same, *rest)], 4)


def speakers_of(clip: Clip, texts: list[str]) -> list[str]:
    """Who said each shown line (quotable lines have one speaker each)."""
    said = {normalise(shown(line)): line.speaker for line in quotable(clip)}
    return [said[normalise(text)] for text in texts]


def evidence_of(*lines: Line) -> list[Evidence]:
    return [Evidence(x.speaker, x.start, x.end) for x in lines]


def content_to_voice(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    drafts = []
    for line in rng.sample(quotable(clip), len(quotable(clip))):
        evidence = evidence_of(line)
        others = [s for s in clip.speaking if s != line.speaker]
        session = sorted({x.speaker for x in clip.session_lines} - set(clip.speaking))
        voices = []
        for speaker in (line.speaker, *others, *session):
            snippet = find_snippet(clip, speaker, evidence, [line.words])
            if snippet is not None:
                voices.append(snippet)
        if len(voices) < 2 or voices[0].speaker != line.speaker:
            continue
        voices = voices[:5]
        question = f"After the clip you hear voices {', '.join('ABCDE'[: len(voices)])}. Which voice said {quote(line.words)}?"
        drafts.append(Draft("CVA", "which_voice", question, voices[0].speaker, [v.speaker for v in voices[1:]],
                            evidence, {"speaker": line.speaker, "line": line.words}, [line.words], voices=voices))  # fmt: skip
    return drafts


def voice_to_content(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    drafts = []
    for speaker in rng.sample(clip.speaking, len(clip.speaking)):
        for line in rng.sample(quotable(clip, speaker), len(quotable(clip, speaker))):
            evidence = evidence_of(line)
            snippet = find_snippet(clip, speaker, evidence, [line.words])
            options = distractor_lines(clip, line, speaker)
            if snippet is None or len(options) < 2:
                continue
            question = (
                "After the clip you hear one voice. Which line did this speaker say in the clip?"
            )
            drafts.append(Draft("VCA", "which_line", question, shown(line), options, evidence,
                                {"speaker": speaker, "line": line.words}, [line.words], reference=snippet,
                                speakers=speakers_of(clip, [shown(line), *options])))  # fmt: skip
            break
    return drafts


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
        drafts.append(Draft("IR", "same_speaker", question, shown(answer), options, evidence_of(a, answer),
                            {"speaker": a.speaker, "quoted": a.words, "line": answer.words}, [a.words],
                            speakers=speakers_of(clip, [shown(answer), *options])))  # fmt: skip
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
    options = distinct(
        shown(first), [shown(x) for x in lines[1:-1]] + distractor_lines(clip, first, speaker), 4
    )
    if len(options) < 2:
        return []
    question = (
        f"The person who said {quote(last.words)}: which of these did they say first in the clip?"
    )
    return [Draft("TR", "first", question, shown(first), options, evidence_of(*lines),
                  {"speaker": speaker, "line": first.words, "order": "first"}, [last.words],
                  speakers=speakers_of(clip, [shown(first), *options]))]  # fmt: skip


def _next_line(clip: Clip, speaker: str, a: Line, following: Line) -> list[Draft]:
    adjacent = [x for x in quotable(clip) if x.start >= a.end and x.speaker != speaker][:2]
    options = distractor_lines(clip, following, speaker, adjacent)
    if len(options) < 2:
        return []
    question = f"What did the person who said {quote(a.words)} say next?"
    return [Draft("TR", "next", question, shown(following), options, evidence_of(a, following),
                  {"speaker": speaker, "quoted": a.words, "line": following.words, "order": "next"}, [a.words],
                  speakers=speakers_of(clip, [shown(following), *options]))]  # fmt: skip


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
        ranked = sorted(said, key=lambda w: (-len(said[w]), w))
        word = rng.choice([w for w in ranked if len(said[w]) == len(said[ranked[0]])])
        n = len(said[word])
        evidence = [
            Evidence(x.speaker, x.start, x.end)
            for x in clip.lines
            if word in content_words(x.words)
        ]
        drafts.append(Draft("QR", "word_count", f'How many distinct speakers say the word "{word}" in this clip?',
                            str(n), count_options(n, rng), evidence, {"word": word, "speakers": sorted(said[word]), "count": n}))  # fmt: skip
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
                    "QR",
                    f"rank_{k}",
                    question,
                    shown(answer),
                    options,
                    speech_evidence(clip),
                    derivation,
                    speakers=speakers_of(clip, [shown(answer), *options]),
                )
            )
    return drafts
