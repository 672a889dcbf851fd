"""Which units are excluded from the metrics, and which are kept but softly degraded.

**Excluded** (omitted from every metric, counted in ``excluded``), each with its reason:

* ``missing``: the system wrote no output for the unit;
* ``refused``: the runner marked a refusal or an empty answer (a ``<unit>.refused``
  file beside the outputs, its text the reason), or the output holds no word while
  the reference has some;
* ``unparseable``: the output cannot be read (the message names the line);
* ``incomplete``: a segment without a speaker, or with end < start; or an output that
  stops before its structure closes (JSON cut off at a token limit, a subtitle cue or a
  timestamped line left unterminated at the end of the file), never scored as the part
  that survived (:data:`msbench.io.cutoff.CUT_OFF`);
* ``runaway``: the output holds more than ``RUNAWAY_TOKENS_PER_SECOND`` (25) tokens
  per second of the unit (no speech is that dense: four people talking at
  once at a fast 4 words per second make 16). Such an output (a looping
  decoder's megabytes) would take the WER family's alignments hours; it is
  excluded, and its size said, before any alignment starts;
* ``language``: the script of the output does not match the unit's language:
  for Chinese, Japanese or Korean units, under ``MIN_SCRIPT_SHARE`` of the
  output's letters are Han/kana/Hangul; for other languages, over
  ``1 - MIN_SCRIPT_SHARE`` are.

**Soft degradation** (kept in the metrics, counted in ``soft_degradation``):

* ``repetition``: some word 3-gram occurs ``REPEAT_COUNT`` (10) times or more and
  covers at least 30 % of the output's tokens;
* ``compression``: the output's zlib compression ratio exceeds ``COMPRESSION_RATIO``
  (2.4, Whisper's hallucination threshold), for outputs of 50 tokens or more;
* ``one_speaker``: every word is given to one speaker while the reference has several;
* ``short``: hypothesised speech lasts under ``SHORT_SPEECH`` (30 %) of the reference's.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Sequence

from msbench.io.json_outputs import TIME_BOUND_S
from msbench.records import Segment
from msbench.timeline import SpeakerTimeline, to_seconds, total

MIN_SCRIPT_SHARE = 0.1
REPEAT_COUNT = 10
REPEAT_COVERAGE = 0.3
COMPRESSION_RATIO = 2.4
COMPRESSION_MIN_TOKENS = 50
SHORT_SPEECH = 0.3
RUNAWAY_TOKENS_PER_SECOND = 25
CJK_LANGUAGES = frozenset({"Chinese", "Japanese", "Korean", "Cantonese", "Mandarin"})
CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
LETTER = re.compile(r"[^\W\d_]")


def structural_problem(segments: Sequence[Segment]) -> str | None:
    """Why a hypothesis cannot be scored as it is (None: it can): a time that is not a finite
    number or lies before 0, a segment ending before it starts, a segment without speaker.

    >>> structural_problem([Segment("u", 0.0, float("nan"), "A", "hi", origin="u.json:entry 1")])
    'unparseable: u.json:entry 1 has a time that is not a finite number (0.0 to nan s)'
    """
    for segment in segments:
        where = segment.origin or "a segment"
        times = (segment.start_time, segment.end_time)
        if not all(isinstance(t, int | float) and math.isfinite(t) for t in times):
            return f"unparseable: {where} has a time that is not a finite number ({times[0]} to {times[1]} s)"
        if max(times) > TIME_BOUND_S:
            return (
                f"unparseable: {where} has a time beyond msbench's bound of 1e7 s "
                f"({times[0]} to {times[1]} s): a time in another unit, or a broken value"
            )
        if segment.start_time < 0:
            return f"unparseable: {where} starts before 0 ({segment.start_time} s)"
        if not segment.speaker.strip():
            return f"incomplete: {segment.origin or 'a segment'} has no speaker"
        if segment.end_time < segment.start_time:
            return f"incomplete: {segment.origin or 'a segment'} ends before it starts"
    return None


#: The one speaker an output without any speaker label is scored as.
NO_SPEAKER = "no-speaker"
#: What the scores say of such an output (msbench score's notes, evaluate's unit notes).
SPEAKERLESS_NOTE = (
    "no speaker labels: scored as one speaker; cpWER, tcpWER and DER charge every other "
    "reference speaker"
)


def one_speaker(segments: Sequence[Segment]) -> tuple[list[Segment], bool]:
    """An output none of whose segments names a speaker (a plain ASR system: whisper.cpp
    without ``-di``, Azure or Deepgram without diarization, WhisperX without ``--diarize``)
    scored as one speaker, as meeteval scores it; ``(segments, True)`` then. An output where
    only some segments lack a speaker is left as it is: the structural check refuses it,
    naming the first such segment.

    >>> relabelled, speakerless = one_speaker([Segment("u", 0.0, 1.0, "", "hi")])
    >>> relabelled[0].speaker, speakerless
    ('no-speaker', True)
    >>> one_speaker([Segment("u", 0.0, 1.0, "", "hi"), Segment("u", 1.0, 2.0, "A", "yo")])[1]
    False
    """
    from dataclasses import replace

    if segments and all(not s.speaker.strip() for s in segments):
        return [replace(s, speaker=NO_SPEAKER) for s in segments], True
    return list(segments), False


def refuse_structural_problem(path: object, segments: Sequence[Segment]) -> None:
    """An InputError for ``msbench score`` where evaluate would exclude the unit."""
    if problem := structural_problem(segments):
        from msbench.errors import InputError

        raise InputError(
            str(path), f"cannot be scored: {problem}", fix="correct or regenerate the output"
        )


def runaway(tokens: int, seconds: float) -> str | None:
    """The ``runaway`` exclusion of an output of ``tokens`` tokens for ``seconds`` of audio.

    >>> runaway(200, 60.0) is None, runaway(100_000, 60.0)
    (True, 'runaway: 100000 tokens for 60.0 s of audio (over 25 per second; no speech is that dense): not aligned')
    """
    if tokens > RUNAWAY_TOKENS_PER_SECOND * max(seconds, 1.0):
        return (
            f"runaway: {tokens} tokens for {seconds:.1f} s of audio (over "
            f"{RUNAWAY_TOKENS_PER_SECOND} per second; no speech is that dense): not aligned"
        )
    return None


def language_mismatch(text: str, language: str) -> str | None:
    """The script check (see the module docstring); None when it matches or there is no letter."""
    letters = LETTER.findall(text)
    if not letters:
        return None
    share = len(CJK.findall(text)) / len(letters)
    if language in CJK_LANGUAGES and share < MIN_SCRIPT_SHARE:
        return f"language: {share:.0%} of the letters are CJK in a {language} unit"
    if language not in CJK_LANGUAGES and share > 1 - MIN_SCRIPT_SHARE:
        return f"language: {share:.0%} of the letters are CJK in a {language} unit"
    return None


def speech_seconds(segments: Sequence[Segment]) -> float:
    timeline = SpeakerTimeline.of(segments)
    return to_seconds(total(timeline.speech()))


def degradations(
    hypothesis: Sequence[Segment],
    reference: Sequence[Segment],
    tokens: Sequence[str],
    speech: tuple[float, float] | None = None,
) -> list[str]:
    """The soft-degradation reasons of a unit's output (see the module docstring).

    ``speech``: the seconds of reference and hypothesised speech, when scoring
    has measured them already.
    """
    reasons = []
    grams = Counter(zip(tokens, tokens[1:], tokens[2:], strict=False))
    if grams:
        gram, count = grams.most_common(1)[0]
        if count >= REPEAT_COUNT and 3 * count >= REPEAT_COVERAGE * len(tokens):
            reasons.append(f"repetition: {' '.join(gram)!r} {count} times")
    if len(tokens) >= COMPRESSION_MIN_TOKENS:
        raw = " ".join(tokens).encode("utf-8")
        ratio = len(raw) / len(zlib.compress(raw))
        if ratio > COMPRESSION_RATIO:
            reasons.append(f"compression: ratio {ratio:.2f} > {COMPRESSION_RATIO}")
    ref_speakers = {s.speaker for s in reference if s.words}
    hyp_speakers = {s.speaker for s in hypothesis if s.words}
    if len(ref_speakers) > 1 and len(hyp_speakers) == 1:
        reasons.append(
            f"one_speaker: all words to one speaker, the reference has {len(ref_speakers)}"
        )
    t_ref, t_hyp = speech or (speech_seconds(reference), speech_seconds(hypothesis))
    if t_ref > 0 and t_hyp < SHORT_SPEECH * t_ref:
        reasons.append(f"short: {t_hyp:.1f} s of speech against {t_ref:.1f} s in the reference")
    return reasons
