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

from msbench.errors import InputError
from msbench.io.collector import SessionCollector, session_from_filename
from msbench.io.sample import Sample
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


_LONG_TIERS = re.compile(r"^\s*size\s*=\s*(\d+)\s*$", re.M)
_LONG_ENTRIES = re.compile(r"^\s*(?:intervals|points):\s*size\s*=\s*(\d+)\s*$", re.M)


def declared_counts(text: str) -> tuple[int, list[int]] | None:
    """The tier count and each tier's entry count the file declares (None: cannot tell).

    praatio reads a truncated TextGrid without complaint, keeping what it
    found; comparing its result with these counts tells a cut file from a
    whole one. Long format: ``size = N`` and each ``intervals: size = M``;
    short format: the fifth value, then each tier's count.

    >>> short = ["File type", "Object class", "", "0", "3", "<exists>", "1",
    ...          '"IntervalTier"', '"A"', "0", "3", "1", "0", "3", '"x"']
    >>> declared_counts(chr(10).join(short)), declared_counts(chr(10).join(short[:9]))
    ((1, [1]), None)
    """
    if "item [" in text:  # long format
        tiers = _LONG_TIERS.search(text)
        return (
            (int(tiers.group(1)), [int(n) for n in _LONG_ENTRIES.findall(text)]) if tiers else None
        )
    values = [line.strip() for line in text.splitlines()[2:] if line.strip()]
    try:
        count, at, entries = int(values[3]), 4, []
        for _ in range(count):
            kind, n = values[at].strip('"'), int(values[at + 4])
            entries.append(n)
            at += 5 + n * (3 if kind == "IntervalTier" else 2)
    except (IndexError, ValueError):
        return None
    return count, entries


def _parse(path: str | Path, text: str) -> dict:
    from praatio.utilities import textgrid_io

    fix = "open and re-save it in Praat as a text file"
    try:
        grid = textgrid_io.parseTextgridStr(text, includeEmptyIntervals=True)
    except Exception as error:  # praatio's ParsingError and what a damaged file makes it raise
        raise InputError(
            path, f"not a readable Praat TextGrid ({type(error).__name__}: {error})", fix=fix
        ) from error
    declared = declared_counts(text)
    found = (len(grid["tiers"]), [len(t["entries"]) for t in grid["tiers"]])
    if declared is None or declared[0] != found[0] or declared[1][: found[0]] != found[1]:
        raise InputError(
            path,
            f"not a readable Praat TextGrid (truncated or damaged: it declares "
            f"{declared[0] if declared else '?'} tier(s) with {declared[1] if declared else '?'} "
            f"entries, {found[0]} tier(s) with {found[1]} entries could be read)",
            fix=fix,
        )
    return grid


def read_textgrid(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    text = read_text(path, encoding)
    grid = _parse(path, text)
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


def detect(sample: Sample) -> bool:
    """Praat's header, or a ``.TextGrid`` file name."""
    return 'Object class = "TextGrid"' in sample.text[:300] or str(sample.path).lower().endswith(
        ".textgrid"
    )
