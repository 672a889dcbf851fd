"""Speaker similarity: maximum pairwise cosine between CAM++ speaker embeddings.

Segment choice, per speaker (deterministic, from the reference segments only):

1. *clean speech* = the speaker's merged speech minus every other speaker's
   speech (:meth:`msbench.timeline.SpeakerTimeline.clean`, exact microseconds);
   its pieces strictly longer than ``min_segment_seconds`` (2 s) qualify;
2. with more than ``max_segments`` (5) qualifying pieces, ``max_segments`` are
   taken evenly spread over the recording (``linspace`` over the pieces in time
   order, rounded);
3. each piece is cropped to its central ``max_segment_seconds``.

Speaker embedding = mean of the L2-normalised segment embeddings, normalised
again; similarity = cosine. Fallbacks: a speaker with 1 or 2 qualifying pieces
(``min_segments`` is 3) still gets an embedding from them and is counted in
``similarity_low_support_speakers``; a speaker with none gets no embedding.
With fewer than two embedded speakers, ``speaker_similarity_max`` is missing
and the recording is ineligible on S (reason recorded). The full matrix is
kept per recording for later pairwise analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from msbench.features.interaction import speaker_timeline
from msbench.records import Segment
from msbench.timeline import to_micros, to_seconds


@dataclass(frozen=True)
class SimilarityResult:
    speakers: tuple[str, ...]
    matrix: tuple[tuple[float, ...], ...]
    segments_per_speaker: dict[str, int]
    maximum: float | None
    low_support: tuple[str, ...] = ()
    note: str = ""
    missing: tuple[str, ...] = field(default=())


def clean_segments(
    segments: Sequence[Segment], settings: Mapping[str, Any]
) -> dict[str, list[tuple[float, float]]]:
    """Per speaker, the chosen (start, end) crops in seconds (see the module docstring)."""
    timeline = speaker_timeline(segments)
    chosen: dict[str, list[tuple[float, float]]] = {}
    for speaker in timeline.speakers:
        shortest = to_micros(settings["min_segment_seconds"])
        pieces = [
            (to_seconds(a), to_seconds(b)) for a, b in timeline.clean(speaker) if b - a > shortest
        ]
        if len(pieces) > settings["max_segments"]:
            picks = np.unique(
                np.round(np.linspace(0, len(pieces) - 1, settings["max_segments"])).astype(int)
            )
            pieces = [pieces[k] for k in picks]
        crops = []
        for a, b in pieces:
            length = min(b - a, settings["max_segment_seconds"])
            start = 0.5 * (a + b) - length / 2
            crops.append((start, start + length))
        chosen[speaker] = crops
    return chosen


def speaker_similarity(
    segments: Sequence[Segment],
    audio: np.ndarray,
    sample_rate: int,
    embed: Callable[[Sequence[np.ndarray]], np.ndarray],
    settings: Mapping[str, Any],
) -> SimilarityResult:
    crops = clean_segments(segments, settings)
    wanted = [(speaker, a, b) for speaker, spans in crops.items() for a, b in spans]
    pieces = [
        audio[int(round(a * sample_rate)) : int(round(b * sample_rate))] for _, a, b in wanted
    ]
    vectors = embed(pieces) if pieces else np.zeros((0, 192))
    speakers, means = [], []
    for speaker in crops:
        rows = [vectors[k] for k, (s, _, _) in enumerate(wanted) if s == speaker]
        if rows:
            mean = np.mean(rows, axis=0)
            speakers.append(speaker)
            means.append(mean / max(np.linalg.norm(mean), 1e-12))
    counts = {speaker: len(spans) for speaker, spans in crops.items()}
    low = tuple(s for s, n in counts.items() if 0 < n < settings["min_segments"])
    missing = tuple(s for s, n in counts.items() if n == 0)
    if len(speakers) < 2:
        return SimilarityResult(
            tuple(speakers),
            (),
            counts,
            None,
            low,
            f"fewer than two speakers with a clean segment over "
            f"{settings['min_segment_seconds']} s",
            missing,
        )
    matrix = np.clip(np.stack(means) @ np.stack(means).T, -1.0, 1.0)
    upper = matrix[np.triu_indices(len(speakers), 1)]
    note = (
        f"{len(low)} speaker(s) with fewer than {settings['min_segments']} segments" if low else ""
    )
    return SimilarityResult(
        tuple(speakers),
        tuple(tuple(float(v) for v in row) for row in matrix),
        counts,
        float(upper.max()),
        low,
        note,
        missing,
    )
