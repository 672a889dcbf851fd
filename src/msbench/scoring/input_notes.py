"""What scoring changes in its input, counted, so that nothing is changed silently.

Three rules change what the metrics see, each the reference tools' own:

- **zero-length segments** (start = end) hold no speech: DER gives them no
  duration, the WER family keeps their words (meeteval does; md-eval and
  pyannote never see words);
- **a speaker's own overlapping segments** are merged for DER, so their
  common time counts once (pyannote.metrics, given them as separate tracks,
  counts it twice; md-eval merges as msbench does); the WER family keeps
  every segment;
- **the UEM**: DER scores speech inside the spans (pyannote crops to its
  ``uem``); the WER family keeps a segment that *meets* a span, closed
  intervals, whole (meeteval's ``filter_by_uem``: a segment ending exactly at
  a span's start is kept, one partly inside is not cut).

:func:`session_notes` writes one line per rule that changed something.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from msbench.records import Segment
from msbench.timeline import merge, to_micros, to_seconds, total


def meets_uem(segment: Segment, spans: Sequence[tuple[float, float]]) -> bool:
    """meeteval's rule: kept when ``start <= span end`` and ``end >= span start`` for a span.

    >>> s = Segment("x", 4.0, 6.0, "A", "a")
    >>> meets_uem(s, [(6.0, 9.0)]), meets_uem(s, [(7.0, 9.0)]), meets_uem(s, [(0.0, 4.0)])
    (True, False, True)
    """
    return any(segment.start_time <= end and segment.end_time >= start for start, end in spans)


def self_overlap(segments: Sequence[Segment]) -> tuple[int, int]:
    """``(segments overlapping an earlier one of the same speaker, µs counted twice by a naive sum)``.

    >>> self_overlap([Segment("x", 0.0, 2.0, "A"), Segment("x", 1.0, 3.0, "A"), Segment("x", 1.0, 3.0, "B")])
    (1, 1000000)
    """
    by_speaker: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for segment in segments:
        by_speaker[segment.speaker].append(
            (to_micros(segment.start_time), to_micros(segment.end_time))
        )
    count = twice = 0
    for spans in by_speaker.values():
        reach = None
        for start, end in sorted(spans):
            if reach is not None and start < reach and end > start:
                count += 1
            reach = end if reach is None else max(reach, end)
        twice += total(s for s in spans if s[1] > s[0]) - total(merge(spans))
    return count, twice


def outside_seconds(segments: Sequence[Segment], spans: Sequence[tuple[float, float]]) -> float:
    """Seconds of the segments' speech (merged over speakers) outside the spans."""
    speech = merge((to_micros(s.start_time), to_micros(s.end_time)) for s in segments)
    scored = merge((to_micros(a), to_micros(b)) for a, b in spans)
    inside = sum(max(0, min(b, d) - max(a, c)) for a, b in speech for c, d in scored)
    return to_seconds(total(speech) - inside)


def session_notes(
    reference: Sequence[Segment],
    hypothesis: Sequence[Segment],
    spans: Sequence[tuple[float, float]],
    with_words: bool,
) -> list[str]:
    """One line per change the scoring of one session makes to its input (see the module)."""
    notes = []
    for side, segments in (("reference", reference), ("hypothesis", hypothesis)):
        empty = [s for s in segments if s.end_time == s.start_time]
        if empty:
            words = sum(len((s.words or "").split()) for s in empty)
            keep = "their words scored in the WER family" if with_words else "no words to score"
            notes.append(
                f"{side}: {len(empty)} zero-length segment(s) ({words} words): no duration "
                f"for DER, {keep}"
            )
        count, twice = self_overlap(segments)
        if count:
            notes.append(
                f"{side}: {count} segment(s) overlap an earlier one of the same speaker "
                f"({to_seconds(twice):.3f} s): merged for DER (pyannote.metrics would count "
                "that time twice); kept as they are for the WER family"
            )
        dropped = sum(not meets_uem(s, spans) for s in segments)
        outside = outside_seconds(segments, spans)
        if outside > 0:
            notes.append(f"{side}: {outside:.3f} s of speech outside the UEM not scored for DER")
        if dropped and with_words:
            notes.append(
                f"{side}: {dropped} segment(s) outside the UEM not scored in the WER family "
                "(meeteval's rule: a segment that meets a span is kept whole)"
            )
    return notes
