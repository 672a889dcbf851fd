"""HEAR's attribution axis: binding a line to a voice (CVA) and a voice to a line (VCA).

* **CVA**: a quoted line; the options are voices (reference snippets): the
  line's speaker, then other speakers of the clip, then of the same recording.
* **VCA**: a speaker's voice; the answer is one of their lines.

Lines and distractors: :mod:`msbench.probes.lines`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from msbench.probes.clips import Clip
from msbench.probes.evidence import find_snippet, voice_seconds
from msbench.probes.items import Draft
from msbench.probes.lines import distractor_lines, evidence_of, quotable, shown, speakers_of
from msbench.probes.text import quote


def content_to_voice(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    drafts = []
    for line in rng.sample(quotable(clip), len(quotable(clip))):
        evidence = evidence_of(line)
        others = [s for s in clip.speaking if s != line.speaker]
        session = sorted({x.speaker for x in clip.session_lines} - set(clip.speaking))
        voices = []
        for speaker in (line.speaker, *others, *session):
            snippet = find_snippet(clip, speaker, evidence, [line.words], voice_seconds(settings))
            if snippet is not None:
                voices.append(snippet)
        if len(voices) < 2 or voices[0].speaker != line.speaker:
            continue
        voices = voices[:5]
        question = f"After the clip you hear voices {', '.join('ABCDE'[: len(voices)])}. Which voice said {quote(line.words)}?"
        drafts.append(
            Draft(
                subtask="which_voice",
                question=question,
                answer=voices[0].speaker,
                distractors=[v.speaker for v in voices[1:]],
                evidence=evidence,
                derivation={"speaker": line.speaker, "line": line.words},
                quoted=[line.words],
                voices=voices,
            )
        )
    return drafts


def voice_to_content(clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
    drafts = []
    for speaker in rng.sample(clip.speaking, len(clip.speaking)):
        for line in rng.sample(quotable(clip, speaker), len(quotable(clip, speaker))):
            evidence = evidence_of(line)
            snippet = find_snippet(clip, speaker, evidence, [line.words], voice_seconds(settings))
            options = distractor_lines(clip, line, speaker)
            if snippet is None or len(options) < 2:
                continue
            question = (
                "After the clip you hear one voice. Which line did this speaker say in the clip?"
            )
            drafts.append(
                Draft(
                    subtask="which_line",
                    question=question,
                    answer=shown(line),
                    distractors=options,
                    evidence=evidence,
                    derivation={"speaker": speaker, "line": line.words},
                    quoted=[line.words],
                    reference=snippet,
                    speakers=speakers_of(clip, [shown(line), *options]),
                )
            )
            break
    return drafts
