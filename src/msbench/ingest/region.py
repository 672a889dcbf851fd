"""A session's scored region at ingest: the audio's end, the UEM's spans, and the crop to them.

See :mod:`msbench.ingest.source` (steps 6 and 7) and :mod:`msbench.io.uem`.
"""

from __future__ import annotations

from dataclasses import replace

from msbench.errors import InputError
from msbench.io.uem import UemTable, clip_spans, describe_spans
from msbench.records import ScoredSpans, Segment, SessionAnnotation


def clip_to_duration(
    segments: tuple[Segment, ...], duration: float, tolerance: float, audio_path: str
) -> tuple[tuple[Segment, ...], list[str]]:
    """Clip segment ends to ``duration``; raise InputError beyond ``tolerance`` seconds."""
    latest = max(segments, key=lambda s: s.end_time)
    if latest.end_time > duration + tolerance:
        raise InputError(
            latest.origin or audio_path,
            f"segment ends at {latest.end_time:.3f} s but the audio {audio_path} lasts "
            f"{duration:.3f} s (more than the {tolerance} s tolerance)",
            fix="check that annotation and audio belong together, or raise "
            "ingest.end_tolerance_seconds",
        )
    kept, notes = [], []
    for segment in segments:
        if segment.end_time <= duration:
            kept.append(segment)
        elif segment.start_time < duration:
            kept.append(segment.with_times(segment.start_time, duration))
            notes.append(
                f"{segment.origin}: end clipped from {segment.end_time:.3f} to {duration:.3f} s"
            )
        else:
            notes.append(
                f"{segment.origin}: removed, starts after the audio end ({duration:.3f} s)"
            )
    return tuple(kept), notes


def crop_to_spans(
    segments: tuple[Segment, ...], spans: ScoredSpans
) -> tuple[tuple[Segment, ...], list[str]]:
    """Segments inside the scored region (the union of ``spans``), with a note of what changed.

    A segment cut at a span's edge keeps its words; one across a gap between
    spans becomes one piece per span, its words on the longest piece (the
    others have none); one outside every span is dropped. Half-open: a
    segment that only touches a span is outside it.

    >>> from msbench.records import Segment
    >>> kept, notes = crop_to_spans((Segment("s", 12.0, 22.0, "A", "a b"),), ((10.0, 15.0), (20.0, 24.0)))
    >>> [(s.start_time, s.end_time, s.words) for s in kept], notes
    ([(12.0, 15.0, 'a b'), (20.0, 22.0, None)], ['UEM 10.000..15.000, 20.000..24.000 s: 1 segment(s) split across a gap between spans (words on the longest piece)'])
    """
    kept: list[Segment] = []
    cut = split = dropped = 0
    for segment in segments:
        if segment.end_time == segment.start_time:  # no speech, words only: kept where it lies
            inside = any(a <= segment.start_time < b for a, b in spans)
            kept += [segment] if inside else []
            dropped += not inside
            continue
        pieces = [
            (max(segment.start_time, a), min(segment.end_time, b))
            for a, b in spans
            if min(segment.end_time, b) > max(segment.start_time, a)
        ]
        if not pieces:
            dropped += 1
            continue
        if len(pieces) > 1:
            split += 1
        elif pieces[0] != (segment.start_time, segment.end_time):
            cut += 1
        longest = max(range(len(pieces)), key=lambda k: pieces[k][1] - pieces[k][0])
        for k, (a, b) in enumerate(pieces):
            piece = segment.with_times(a, b)
            kept.append(piece if k == longest else replace(piece, words=None))
    parts = []
    if cut:
        parts.append(f"{cut} segment(s) cut at the edges of its spans")
    if split:
        parts.append(
            f"{split} segment(s) split across a gap between spans (words on the longest piece)"
        )
    if dropped:
        parts.append(f"{dropped} segment(s) outside every span dropped")
    notes = [f"UEM {describe_spans(spans)}: " + ", ".join(parts)] if parts else []
    return tuple(kept), notes


def scored_region(
    session: SessionAnnotation, uem: UemTable | None, audio_end: float
) -> tuple[ScoredSpans, list[str]]:
    """The session's UEM spans cut to the audio (or the whole audio), and the UEM's notes."""
    if uem is None:
        return ((0.0, audio_end),), []
    name = session.session_id
    problems = uem.problems.get(name)
    if problems:
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputError(uem.files.get(name, "UEM"), f"bad UEM: {problems[0]}{more}")
    notes = list(uem.notes.get(name, ()))
    if name not in uem.spans:
        if uem.unreadable:
            files = ", ".join(str(e.path) for e in uem.unreadable)
            raise InputError(
                files,
                f"no UEM span for session {name!r}, and UEM file(s) {files} could not be read "
                f"({uem.unreadable[0].problem}): its span may be there",
                fix="fix or remove the unreadable UEM file",
            )
        return ((0.0, audio_end),), [
            *notes,
            "no UEM line for this session: the whole audio is scored",
        ]
    spans = clip_spans(uem.spans[name], audio_end)
    if spans != uem.spans[name]:
        notes.append(
            f"UEM {describe_spans(uem.spans[name])} cut to the audio's {audio_end:.3f} s: "
            f"{describe_spans(spans) if spans else 'nothing left'}"
        )
    if not spans:
        raise InputError(
            uem.files.get(name, "UEM"),
            f"the UEM spans of session {name!r} ({describe_spans(uem.spans[name])}) lie "
            f"outside the audio (0..{audio_end:.3f} s)",
            fix="check that the UEM and the audio belong together",
        )
    if len(spans) > 1:
        gaps = sum(b[0] - a[1] for a, b in zip(spans, spans[1:], strict=False))
        notes.append(
            f"scored region: {len(spans)} UEM spans; the {gaps:.3f} s between them are not scored "
            "(the duration is the spans' total)"
        )
    return spans, notes
