"""The audit of a rebuild: the release joined to the rebuild, every axis compared, the report.

:func:`audit_report` is what ``msbench audit`` writes as ``audit.json``;
:func:`audit_markdown` its ``audit.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.audit.compare import Join


def rebuild_rejections(features: Path, rejected: Path | None) -> dict[str, str]:
    """Why the rebuild rejected a recording: ``rejected.csv`` (given, or beside the features)."""
    from msbench.catalog import REJECTED
    from msbench.tables import read_rows

    path = rejected or features.with_name("rejected.csv")
    if not path.exists():
        return {}
    return {
        str(r["recording_id"]): f"rejected by the rebuild: {r['reason']}"
        for r in read_rows(REJECTED, path)
        if r.get("recording_id")
    }


def similarity_study(
    ingested: Sequence[Path], joined: Join, resolved: Mapping[str, Any], space: Any
) -> dict[str, Any] | None:
    """S recomputed under ``audit.similarity_variants`` for the joined recordings (or None)."""
    variants = resolved["audit"]["similarity_variants"]
    if not variants or not ingested:
        return None
    from msbench.audit.similarity_study import study
    from msbench.catalog import INGESTED
    from msbench.records import IngestedRecording
    from msbench.tables import read_rows

    items = [
        IngestedRecording.from_dict(row) for path in ingested for row in read_rows(INGESTED, path)
    ]
    published = {
        str(p["recording_id"]): float(p["speaker_similarity_max"])
        for p, _ in joined.joined
        if p.get("speaker_similarity_max") is not None
    }
    return study(items, published, variants, resolved, space.axis("S").label)


def audit_report(
    release: Path,
    joined: Join,
    per_axis: list[dict[str, Any]],
    similarity: dict[str, Any] | None,
) -> dict[str, Any]:
    """``audit.json``: what was joined, what is missing, every axis, d_N re-ranked, S variants."""
    from msbench.audit.compare import reranked_noise

    return {
        "release": str(release),
        "joined": len(joined.joined),
        "release_ids_missing": joined.missing,
        "axes": per_axis,
        "noise_difficulty": reranked_noise(joined),
        "similarity_variants": similarity,
    }


def audit_markdown(joined: Join, per_axis: list[dict[str, Any]], rows: list[dict[str, Any]]) -> str:
    """The summary table per axis, then every recording's row."""
    from msbench.columns import COMPARISON_COLUMNS
    from msbench.tables import markdown_table

    columns = ["axis", "field", "joined", "computed", "values_agree", "labels_agree"]
    columns += ["median_abs_diff", "max_abs_diff", "spearman"]
    text = f"{len(joined.joined)} recordings joined, {len(joined.missing)} release ids missing.\n\n"
    return (
        text + markdown_table(per_axis, columns) + "\n" + markdown_table(rows, COMPARISON_COLUMNS)
    )
