"""Audit a rebuild against a published release: which recordings agree, on which axis, by how much.

The rebuild's features (``recordings.csv``, or any CSV/JSONL with the
release's field names) are joined with the release's ``metadata.jsonl`` by
``recording_id``. Per axis and recording: the published and rebuilt values,
``abs_diff = rebuilt - published`` (signed), ``rel_diff = abs_diff /
|published|`` (empty when published is 0), and both labels (the rebuild's
labels are recomputed with the configured condition space, so both sides are
binned the same way). A value the rebuild does not have is "not computed".

Agreement, per axis: a value agrees when ``|abs_diff| <= tolerance``
(:data:`TOLERANCES`: 1e-6 for the annotation features, which are exact; 0.01
for S and N, which come from models); a label agrees when both labels are
equal. The confusion of ranges counts (published label, rebuilt label) pairs.

**N is pool-relative.** ``d_N`` is a percentile rank over the characterized
pool, so it agrees only when the pool matches the release's (about 1,400
recordings). The audit therefore also reports the Spearman rank correlation
of rebuilt and published ``d_N`` over the joined recordings, and a second
rebuilt ``d_N`` re-ranked within the joined set only (from the raw DNSMOS OVRL
and NISQA MOS, when the features hold them), with its own Spearman.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from msbench.columns import AXES, FEATURE_FIELDS
from msbench.construction.condition_space import ConditionSpace

NOT_COMPUTED = "not computed"
#: |rebuilt - published| at most this counts as agreement, per axis.
TOLERANCES = {"P": 0.0, "O": 1e-6, "S": 0.01, "T": 1e-6, "N": 0.01}
AXIS_FIELDS = dict(zip(AXES, FEATURE_FIELDS, strict=True))


@dataclass(frozen=True)
class Join:
    joined: list[tuple[Mapping[str, Any], Mapping[str, Any]]]  # (published, rebuilt)
    missing: list[dict[str, str]]  # release ids the rebuild lacks, with why


def join(
    release: Sequence[Mapping[str, Any]],
    rebuild: Sequence[Mapping[str, Any]],
    rejected: Mapping[str, str] | None = None,
) -> Join:
    """Pairs by ``recording_id``, in release order; the release ids without a rebuild row."""
    by_id = {str(row["recording_id"]): row for row in rebuild}
    pairs, missing = [], []
    for row in release:
        rid = str(row["recording_id"])
        if rid in by_id:
            pairs.append((row, by_id[rid]))
        else:
            why = (rejected or {}).get(
                rid, "not in the rebuild (source not configured, or session absent)"
            )
            missing.append({"recording_id": rid, "why": why})
    return Join(pairs, missing)


def _number(value: Any) -> float | None:
    return None if value is None or value == "" else float(value)


def compare(joined: Join, space: ConditionSpace) -> list[dict[str, Any]]:
    """One row per (recording, axis): both values, differences, both labels (see the module docstring)."""
    rows = []
    for published, rebuilt in joined.joined:
        labels = space.labels(rebuilt)
        for axis, field in AXIS_FIELDS.items():
            old, new = _number(published.get(field)), _number(rebuilt.get(field))
            diff = None if old is None or new is None else new - old
            rel = None if diff is None or not old else diff / abs(old)
            old_label = (published.get("conditions") or {}).get(axis) or space.labels(published)[
                axis
            ]
            new_label = labels[axis] if new is not None else None
            rows.append(
                {
                    "recording_id": published["recording_id"],
                    "axis": axis,
                    "field": field,
                    "published": old,
                    "rebuilt": NOT_COMPUTED if new is None else new,
                    "abs_diff": diff,
                    "rel_diff": rel,
                    "value_agrees": None if diff is None else abs(diff) <= TOLERANCES[axis] + 1e-12,
                    "published_label": old_label,
                    "rebuilt_label": new_label or NOT_COMPUTED,
                    "label_agrees": None if new_label is None else new_label == old_label,
                }
            )
    return rows


def spearman(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Spearman's rho (average ranks for ties); None for fewer than 3 pairs or a constant side."""
    if len(a) < 3:
        return None
    from scipy.stats import spearmanr

    rho = spearmanr(a, b).statistic
    return None if rho != rho else float(rho)  # NaN for a constant side


def summary(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per axis: joined, computed, value and label agreement counts, median and max |diff|, confusion."""
    out = []
    for axis in AXES:
        mine = [r for r in rows if r["axis"] == axis]
        computed = [r for r in mine if r["abs_diff"] is not None]
        diffs = [abs(r["abs_diff"]) for r in computed]
        confusion = Counter(f"{r['published_label']}->{r['rebuilt_label']}" for r in computed)
        out.append(
            {
                "axis": axis,
                "field": AXIS_FIELDS[axis],
                "joined": len(mine),
                "computed": len(computed),
                "values_agree": sum(1 for r in computed if r["value_agrees"]),
                "labels_agree": sum(1 for r in computed if r["label_agrees"]),
                "median_abs_diff": statistics.median(diffs) if diffs else None,
                "max_abs_diff": max(diffs) if diffs else None,
                "tolerance": TOLERANCES[axis],
                "label_confusion": dict(sorted(confusion.items())),
                "spearman": spearman(
                    [r["published"] for r in computed], [r["rebuilt"] for r in computed]
                ),
            }
        )
    return out


def reranked_noise(joined: Join) -> dict[str, Any]:
    """d_N re-ranked within the joined set from the raw scores, and its Spearman with the release."""
    from msbench.features.quality_rank import add_noise_difficulty

    scored = [
        (p, r)
        for p, r in joined.joined
        if r.get("dnsmos_ovrl") not in (None, "") and r.get("nisqa_mos") not in (None, "")
    ]
    if not scored:
        return {
            "reranked_within_joined": NOT_COMPUTED,
            "note": "the rebuild holds no raw DNSMOS/NISQA scores",
        }
    reranked = add_noise_difficulty(
        [
            {"dnsmos_ovrl": float(r["dnsmos_ovrl"]), "nisqa_mos": float(r["nisqa_mos"])}
            for _, r in scored
        ]
    )
    published = [float(p["noise_difficulty"]) for p, _ in scored]
    return {
        "recordings": len(scored),
        "spearman_reranked_within_joined": spearman(
            published, [row["noise_difficulty"] for row in reranked]
        ),
        "note": "d_N is a percentile rank over the pool: it agrees only when the pool matches the release's",
    }
