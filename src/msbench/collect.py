"""Gather every source's features and rejections into the run's recording table.

A recording that was characterized but cannot enter a benchmark stays in the
table with ``eligible = false``, its codes (``ineligible_codes``) and messages
(``ineligible_reasons``), both ``;``-separated, from :mod:`msbench.eligibility`.
Rejected recordings never reach this table; they are in the rejected list with
the stage, code and reason. Rows are sorted by ``recording_id``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from msbench.eligibility import ineligibility, join_codes, join_messages
from msbench.records import Rejection
from msbench.textio import read_jsonl


def mark_eligibility(
    rows: Iterable[dict[str, Any]], min_speakers: int, min_clean_seconds: float
) -> list[dict[str, Any]]:
    marked = []
    for row in sorted(rows, key=lambda r: r["recording_id"]):
        reasons = ineligibility(row, min_speakers, min_clean_seconds)
        marked.append(
            {
                **row,
                "eligible": not reasons,
                "ineligible_codes": join_codes(reasons),
                "ineligible_reasons": join_messages(reasons),
            }
        )
    return marked


def read_rejections(paths: Sequence[str | Path]) -> list[Rejection]:
    return sorted(
        (Rejection(**row) for path in paths for row in read_jsonl(path)),
        key=lambda r: (r.source_dataset, r.recording_id, r.file),
    )


def left_out_by_code(
    recordings: list[dict[str, Any]], rejections: list[Rejection]
) -> dict[str, int]:
    """How many recordings each code leaves out (a recording may carry several codes)."""
    codes: Counter[str] = Counter(r.code for r in rejections)
    for row in recordings:
        codes.update(code for code in row["ineligible_codes"].split("; ") if code)
    return dict(sorted(codes.items()))


def run_summary(recordings: list[dict[str, Any]], rejections: list[Rejection]) -> dict[str, Any]:
    """Counts that show nothing was lost: characterized + rejected = everything seen."""
    return {
        "recordings_in": len(recordings) + len(rejections),
        "equation": "recordings_in = recordings_characterized + recordings_rejected",
        "recordings_characterized": len(recordings),
        "recordings_eligible": sum(1 for r in recordings if r["eligible"]),
        "recordings_ineligible": sum(1 for r in recordings if not r["eligible"]),
        "recordings_rejected": len(rejections),
        "rejected_by_stage": dict(sorted(Counter(r.stage for r in rejections).items())),
        "left_out_by_code": left_out_by_code(recordings, rejections),
        "characterized_by_source": dict(
            sorted(Counter(r["source_dataset"] for r in recordings).items())
        ),
        "rejected_by_source": dict(sorted(Counter(r.source_dataset for r in rejections).items())),
        "total_hours": round(sum(r["duration_seconds"] for r in recordings) / 3600, 4),
    }
