"""Evidence spans, the overlap label, and reference voice snippets.

**Overlap label.** An item's evidence is the spans a listener must hear to
answer it, each with the speaker it is about (or none, for a span judged as a
whole). Its *overlap share* is the part of the evidence covered by other
speakers (by two or more speakers for a span about nobody), exact in µs. The
item is ``overlap`` when the share is at least ``overlap_min``,
``non-overlap`` when it is at most ``non_overlap_max``, and dropped in between.

**Reference snippets.** A voice is presented by 2 to 4 s
(``probes.voice_min_seconds``, ``voice_max_seconds``) of one speaker alone
(no other speaker of the recording talks), outside every evidence span, taken
from lines that share no content word with any quoted text: first inside the
clip, then elsewhere in the same recording (``origin``), longest first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from msbench.probes.clips import Clip
from msbench.probes.text import content_words
from msbench.timeline import Span, covered, merge, subtract, to_micros, to_seconds


@dataclass(frozen=True)
class Evidence:
    speaker: str | None
    start: float
    end: float


def overlap_share(clip: Clip, evidence: Sequence[Evidence]) -> float:
    """Covered µs over evidence µs (0 for no evidence)."""
    timeline = clip.session_timeline
    total = hit = 0
    for span in evidence:
        micros = (to_micros(span.start), to_micros(span.end))
        others = timeline.overlap() if span.speaker is None else timeline.others(span.speaker)
        total += micros[1] - micros[0]
        hit += covered(micros, others)
    return hit / total if total else 0.0


def overlap_label(share: float, settings: Mapping[str, float]) -> str | None:
    """``overlap``, ``non-overlap``, or None (the margin: the item is dropped).

    >>> [overlap_label(s, {"overlap_min": 0.15, "non_overlap_max": 0.05}) for s in (0.0, 0.1, 0.4)]
    ['non-overlap', None, 'overlap']
    """
    if share >= settings["overlap_min"]:
        return "overlap"
    if share <= settings["non_overlap_max"]:
        return "non-overlap"
    return None


@dataclass(frozen=True)
class Snippet:
    speaker: str
    recording_id: str
    start: float
    end: float
    origin: str  # "clip" or "session"

    def provenance(self) -> dict[str, object]:
        return {
            "speaker": self.speaker,
            "recording_id": self.recording_id,
            "start": self.start,
            "end": self.end,
            "origin": self.origin,
        }


def _clean_spans(
    clip: Clip, speaker: str, avoid: Sequence[Evidence], banned: set[str]
) -> list[Span]:
    timeline = clip.session_timeline
    spans = subtract(
        timeline.clean(speaker), merge((to_micros(e.start), to_micros(e.end)) for e in avoid)
    )
    lines = [x for x in clip.session_lines or clip.lines if x.speaker == speaker]
    kept = []
    for low, high in spans:
        said = [x for x in lines if to_micros(x.start) < high and to_micros(x.end) > low]
        if said and not any(content_words(x.words) & banned for x in said):
            kept.append((low, high))
    return kept


def voice_seconds(settings: Mapping[str, object]) -> tuple[float, float]:
    """The shortest and longest reference snippet of the probe settings (2 and 4 s by default).

    >>> voice_seconds({"voice_min_seconds": 1.5})
    (1.5, 4.0)
    """
    low, high = settings.get("voice_min_seconds", 2.0), settings.get("voice_max_seconds", 4.0)
    return float(low), float(high)  # type: ignore[arg-type]


def find_snippet(
    clip: Clip,
    speaker: str,
    avoid: Sequence[Evidence],
    quoted: Sequence[str],
    seconds: tuple[float, float] = (2.0, 4.0),
) -> Snippet | None:
    """The speaker's reference snippet (rules in the module docstring), or None.

    ``seconds``: its shortest and longest length (:func:`voice_seconds`).
    """
    banned = set().union(*(content_words(q) for q in quoted)) if quoted else set()
    shortest, longest = (to_micros(s) for s in seconds)
    inside = (to_micros(clip.start), to_micros(clip.end))
    options = []
    for low, high in _clean_spans(clip, speaker, avoid, banned):
        if high - low < shortest:
            continue
        origin = 0 if low >= inside[0] and high <= inside[1] else 1
        options.append((origin, -(high - low), low, high))
    if not options:
        return None
    origin, _, low, high = min(options)
    return Snippet(
        speaker,
        clip.recording_id,
        to_seconds(low),
        to_seconds(min(high, low + longest)),
        ("clip", "session")[origin],
    )
