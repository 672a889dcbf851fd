"""Gather every source's features and rejections into the run's recording table.

A recording that was characterized but cannot enter a benchmark stays in the
table with ``eligible = false`` and its reasons (``ineligible_reasons``,
``;``-separated). Rejected recordings never reach this table; they are in the
rejected list with the stage and reason. Rows are sorted by ``recording_id``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from msbench.records import Rejection

REJECTED_COLUMNS = ("recording_id", "source_dataset", "stage", "file", "reason")


def ineligibility_reasons(row: dict[str, Any], min_speakers: int) -> list[str]:
    """Why a characterized recording cannot be a benchmark candidate (empty: eligible)."""
    reasons = []
    if row["num_speakers"] < min_speakers:
        reasons.append(f"fewer than {min_speakers} speakers ({row['num_speakers']})")
    if row.get("speaker_switch_q25") is None:
        reasons.append("T undefined: no non-overlapping speaker change")
    if row.get("speaker_similarity_max") is None:
        reasons.append("S undefined: fewer than two speakers with clean speech over 2 s")
    if row.get("noise_difficulty") is None:
        reasons.append("N undefined: no DNSMOS/NISQA scores")
    return reasons


def mark_eligibility(rows: Iterable[dict[str, Any]], min_speakers: int) -> list[dict[str, Any]]:
    marked = []
    for row in sorted(rows, key=lambda r: r["recording_id"]):
        reasons = ineligibility_reasons(row, min_speakers)
        marked.append({**row, "eligible": not reasons, "ineligible_reasons": "; ".join(reasons)})
    return marked


def run_summary(recordings: list[dict[str, Any]], rejections: list[Rejection]) -> dict[str, Any]:
    """Counts that show nothing was lost: characterized + rejected = everything seen."""
    return {
        "recordings_characterized": len(recordings),
        "recordings_eligible": sum(1 for r in recordings if r["eligible"]),
        "recordings_ineligible": sum(1 for r in recordings if not r["eligible"]),
        "recordings_rejected": len(rejections),
        "rejected_by_stage": dict(sorted(Counter(r.stage for r in rejections).items())),
        "characterized_by_source": dict(
            sorted(Counter(r["source_dataset"] for r in recordings).items())
        ),
        "rejected_by_source": dict(sorted(Counter(r.source_dataset for r in rejections).items())),
        "total_hours": round(sum(r["duration_seconds"] for r in recordings) / 3600, 4),
    }
