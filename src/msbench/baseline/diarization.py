"""Who speaks when, one speaker at a time: CAM++ on sliding windows, agglomerative clustering.

1. Windows of ``window_seconds`` every ``hop_seconds`` inside each speech
   region (a region shorter than a window is one window);
2. each window embedded by CAM++ (the extractor and weights of the S axis),
   L2-normalised;
3. average-linkage agglomerative clustering on cosine distance (scipy),
   stopped at ``threshold`` (a distance, ``1 - cosine``), or cut at
   ``num_speakers`` clusters when that is given;
4. re-segmentation: every 10 ms frame of speech takes the label of the window
   whose centre is nearest; runs of one label are the speaker turns.

Overlapped speech is not modelled: each instant has at most one speaker.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

SAMPLE_RATE = 16000
FRAME = 0.01  # seconds


@dataclass(frozen=True)
class Turn:
    speaker: str
    start: float
    end: float


def windows(
    regions: Sequence[tuple[float, float]], window: float, hop: float
) -> list[tuple[float, float]]:
    """Sliding windows inside each region; the last one ends at the region's end.

    >>> windows([(0.0, 2.0), (5.0, 5.5)], 1.5, 0.75)
    [(0.0, 1.5), (0.5, 2.0), (5.0, 5.5)]
    """
    out = []
    for start, end in regions:
        if end - start <= window:
            out.append((start, end))
            continue
        position = start
        while position + window < end:
            out.append((position, position + window))
            position += hop
        out.append((end - window, end))
    return out


def cluster(embeddings: np.ndarray, threshold: float, num_speakers: int | None) -> np.ndarray:
    """Cluster labels 0.. (in order of first appearance) of L2-normalised embeddings."""
    from scipy.cluster.hierarchy import fcluster, linkage

    if len(embeddings) == 1:
        return np.zeros(1, dtype=int)
    tree = linkage(embeddings, method="average", metric="cosine")
    if num_speakers:
        raw = fcluster(tree, t=min(num_speakers, len(embeddings)), criterion="maxclust")
    else:
        raw = fcluster(tree, t=threshold, criterion="distance")
    order = {label: k for k, label in enumerate(dict.fromkeys(raw.tolist()))}
    return np.array([order[label] for label in raw.tolist()])


def turns_of(
    regions: Sequence[tuple[float, float]],
    spans: Sequence[tuple[float, float]],
    labels: np.ndarray,
) -> list[Turn]:
    """Speaker turns: each 10 ms speech frame labelled by the nearest window centre."""
    if not spans:
        return []
    centres = np.array([(a + b) / 2 for a, b in spans])
    turns: list[Turn] = []
    for start, end in regions:
        frames = np.arange(start, end, FRAME)
        nearest = labels[np.abs(frames[:, None] - centres[None, :]).argmin(axis=1)]
        boundaries = np.flatnonzero(np.diff(nearest)) + 1
        for piece in np.split(np.arange(len(frames)), boundaries):
            first, last = frames[piece[0]], min(end, frames[piece[-1]] + FRAME)
            turns.append(Turn(f"spk{int(nearest[piece[0]])}", round(first, 3), round(last, 3)))
    return turns


def diarize(
    audio: np.ndarray,
    regions: Sequence[tuple[float, float]],
    embedder: Any,
    settings: Mapping[str, Any],
) -> list[Turn]:
    """Speaker turns of one unit (see the module docstring)."""
    spans = windows(regions, float(settings["window_seconds"]), float(settings["hop_seconds"]))
    if not spans:
        return []
    crops = [
        audio[int(a * SAMPLE_RATE) : max(int(a * SAMPLE_RATE) + 1, int(b * SAMPLE_RATE))]
        for a, b in spans
    ]
    embeddings = embedder.embed(crops)
    labels = cluster(embeddings, float(settings["threshold"]), settings.get("num_speakers"))
    return turns_of(regions, spans, labels)
