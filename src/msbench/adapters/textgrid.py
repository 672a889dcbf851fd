"""Praat TextGrids with one interval tier per speaker (AISHELL-4, AliMeeting, AISHELL-5).

* One file per session; the session id is the file name without ``.TextGrid``.
* Each interval tier is a speaker, named by the tier. Tiers that share a name
  are one speaker: Praat allows duplicate names and real corpora use them.
* An interval is silence when its text is empty or consists only of
  non-speech tags such as ``<%>``, ``<sil>``, ``<$>`` or ``[noise]``
  (:data:`NON_SPEECH_TEXT`); every other interval is a speech segment whose
  text becomes ``words``.
* Text encodings: UTF-8 or UTF-16, with or without BOM (:mod:`msbench.textio`).
  Parsing of long and short TextGrid text formats is praatio's.
* ``xmax`` of the TextGrid is the annotation's notion of the recording length.
* **Aligner output** (Montreal Forced Aligner and the like) is not one tier per
  speaker: a ``words`` and a ``phones`` tier per speaker, named ``words`` /
  ``phones`` or ``<speaker> - words`` / ``<speaker> - phones``. Such tiers are
  recognised by name: the words tier is the speaker (``<speaker>``, or the
  session for a bare ``words``), the phone-level tiers are dropped, and the
  session notes say so, instead of counting every tier as a speaker. Tiers that
  tile each other exactly (same speech coverage, one subdividing the other) are
  recognised too, whatever their names (:func:`tiling_tiers`).
"""

from __future__ import annotations

import re
from itertools import combinations
from pathlib import Path

from msbench.adapters.common import SessionCollector, session_from_filename
from msbench.errors import InputError
from msbench.records import SessionAnnotation
from msbench.textio import read_text

#: Text made only of bracketed tags is silence, e.g. ``<%>``, ``<sil> <sil>``, ``[noise]``.
NON_SPEECH_TEXT = re.compile(r"^\s*(?:(?:<[^<>]*>|\[[^\[\]]*\])\s*)+$")


def is_silence(text: str) -> bool:
    return not text.strip() or bool(NON_SPEECH_TEXT.match(text))


#: Tier names of forced aligners: words tiers carry the speech, the others are sub-word levels.
ALIGNER_WORDS = frozenset({"words", "word"})
ALIGNER_SUBWORD = frozenset({"phones", "phone", "phonemes", "syllables", "segments"})


def aligner_tier(name: str) -> tuple[str, str] | None:
    """``("speaker", "words"|"subword")`` for an aligner's tier name, None for a speaker tier.

    >>> aligner_tier("spk1 - phones"), aligner_tier("words"), aligner_tier("005")
    (('spk1', 'subword'), ('', 'words'), None)
    """
    speaker, _, level = name.rpartition(" - ")
    level = level.strip().lower()
    if level in ALIGNER_WORDS:
        return speaker.strip(), "words"
    if level in ALIGNER_SUBWORD:
        return speaker.strip(), "subword"
    return None


def _coverage(tier: dict) -> tuple[tuple[int, int], ...]:
    from msbench.timeline import merge, to_micros

    spans = [
        (to_micros(float(a)), to_micros(float(b)))
        for a, b, label in tier["entries"]
        if not is_silence(label)
    ]
    return tuple(merge(spans))


def tiling_tiers(tiers: list[dict]) -> dict[int, str]:
    """Tiers (1-based) that tile another tier exactly: an aligner's finer level, not a speaker.

    Two tiers of different names whose speech covers exactly the same time,
    the finer one (more intervals) subdividing the other, are one speaker's
    words and phones: the finer tier is dropped, with a note. Real speakers
    never share every boundary.
    """
    interval = [
        (k, t)
        for k, t in enumerate(tiers, start=1)
        if t["class"] == "IntervalTier" and aligner_tier(t["name"]) is None
    ]
    covers = {k: _coverage(t) for k, t in interval}
    dropped: dict[int, str] = {}
    for (a, ta), (b, tb) in combinations(interval, 2):
        if ta["name"] == tb["name"] or not covers[a] or covers[a] != covers[b]:
            continue
        finer, coarser = (a, b) if len(ta["entries"]) > len(tb["entries"]) else (b, a)
        if finer not in dropped and coarser not in dropped:
            name = tiers[coarser - 1]["name"]
            dropped[finer] = (
                f"tiles tier {coarser} {name!r} exactly (an aligner's finer level): ignored"
            )
    return dropped


def read_textgrid(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    from praatio.utilities import textgrid_io

    text = read_text(path, encoding)
    try:
        grid = textgrid_io.parseTextgridStr(text, includeEmptyIntervals=True)
    except Exception as error:  # praatio's ParsingError and what a damaged file makes it raise
        raise InputError(
            path,
            f"not a readable Praat TextGrid ({type(error).__name__}: {error})",
            fix="open and re-save it in Praat as a text file",
        ) from error
    session = session_from_filename(path)
    collector = SessionCollector(str(path))
    collector.touch(session)
    collector.durations[session] = float(grid["xmax"])
    tiling = tiling_tiers(grid["tiers"])
    for tier_number, tier in enumerate(grid["tiers"], start=1):
        if tier["class"] != "IntervalTier":
            continue
        if tier_number in tiling:
            collector.note(
                session, f"{path}: tier {tier_number} {tier['name']!r} {tiling[tier_number]}"
            )
            continue
        speaker = tier["name"]
        aligned = aligner_tier(speaker)
        if aligned is not None:
            if aligned[1] == "subword":
                collector.note(
                    session,
                    f"{path}: tier {tier_number} {speaker!r} (aligner sub-word tier) ignored",
                )
                continue
            speaker = aligned[0] or session
            collector.note(
                session,
                f"{path}: tier {tier_number} {tier['name']!r} read as aligner words of speaker {speaker!r}",
            )
        for interval_number, (start, end, label) in enumerate(tier["entries"], start=1):
            if is_silence(label):
                continue
            where = f"tier {tier_number} {tier['name']!r} interval {interval_number}"
            collector.add(session, speaker, float(start), float(end), where, label.strip())
    return collector.sessions()
