"""Which speaker-similarity convention reproduces the release: S recomputed under named variants.

The release's S values cannot be checked without its audio; the first user
who holds the corpora can. Each variant of ``audit.similarity_variants`` names
overrides of the similarity settings (``min_segment_seconds``, ``max_segments``,
``max_segment_seconds``, ``min_segments``), a CAM++ ``checkpoint`` (a weights
file) and an audio ``channel``; S is recomputed for every joined recording
(from its ingested segments and audio) and compared with the published value:
Spearman rho, median and max |difference|, label agreement. The variant with
the smallest median |difference| agrees best.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from msbench.audit.compare import spearman

VARIANT_KEYS = ("min_segment_seconds", "max_segments", "max_segment_seconds", "min_segments")


def variant_similarity(
    items: Sequence[Any], variant: Mapping[str, Any], settings: Mapping[str, Any]
) -> dict[str, float | None]:
    """S of each ingested recording under one variant (recording_id -> value or None)."""
    from msbench.features.acoustic import SAMPLE_RATE, load_16k
    from msbench.features.similarity import speaker_similarity
    from msbench.models.campplus import CamPlusEmbedder

    similarity = {
        **settings["acoustic"]["similarity"],
        **{k: variant[k] for k in VARIANT_KEYS if k in variant},
    }
    models = dict(settings["models"])
    if variant.get("checkpoint"):
        models["campplus"] = {**models.get("campplus", {}), "path": variant["checkpoint"]}
    embedder = CamPlusEmbedder(models, settings["acoustic"]["threads"], "cpu")
    values: dict[str, float | None] = {}
    for item in items:
        if "channel" in variant:
            item = replace(item, recording=replace(item.recording, channel=int(variant["channel"])))
        audio, _ = load_16k(item)
        result = speaker_similarity(item.segments, audio, SAMPLE_RATE, embedder.embed, similarity)
        values[item.recording.recording_id] = result.maximum
    return values


def study(
    items: Sequence[Any],
    published: Mapping[str, float],
    variants: Sequence[Mapping[str, Any]],
    settings: Mapping[str, Any],
    label: Any,
) -> dict[str, Any]:
    """Per variant, agreement with the published S; ``best``: the smallest median |diff|."""
    joined = [item for item in items if item.recording.recording_id in published]
    report = []
    for variant in variants:
        values = variant_similarity(joined, variant, settings)
        pairs = [(published[rid], v) for rid, v in values.items() if v is not None]
        diffs = [abs(v - p) for p, v in pairs]
        report.append(
            {
                "variant": variant["name"],
                "settings": {k: v for k, v in variant.items() if k != "name"},
                "recordings": len(pairs),
                "spearman": spearman([p for p, _ in pairs], [v for _, v in pairs]),
                "median_abs_diff": statistics.median(diffs) if diffs else None,
                "max_abs_diff": max(diffs) if diffs else None,
                "labels_agree": sum(1 for p, v in pairs if label(p) == label(v)),
                "values": {rid: values[rid] for rid in sorted(values)},
            }
        )
    ranked = [r for r in report if r["median_abs_diff"] is not None]
    best = (
        min(ranked, key=lambda r: (r["median_abs_diff"], r["variant"]))["variant"]
        if ranked
        else None
    )
    return {"variants": report, "best": best}
