"""Gather every source's features and rejections into the run's recording table.

A recording that was characterized but cannot enter a benchmark stays in the
table with ``eligible = false``, its codes (``ineligible_codes``) and messages
(``ineligible_reasons``), both ``;``-separated, from :mod:`msbench.eligibility`.
Rejected recordings never reach this table; they are in the rejected list with
the stage, code and reason. Rows are sorted by ``recording_id``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from msbench.catalog import ACOUSTIC_SIMILARITY, INGEST_REJECTED, SOURCE_UTTERANCES
from msbench.eligibility import ineligibility, join_codes, join_messages
from msbench.records import Rejection
from msbench.rows import UtteranceRow
from msbench.tables import read_rows


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
        # the acoustic batches' rejections are the same records as ingest's
        (Rejection(**row) for path in paths for row in read_rows(INGEST_REJECTED, path)),
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


def failed_sources(
    recordings: list[dict[str, Any]], rejections: list[Rejection], sources: Sequence[str]
) -> dict[str, str]:
    """Each source that gave no recording, with its reason: rejected as a whole (its reason),
    or every recording of it rejected (how many, and where they are listed)."""
    failed = {r.source_dataset: r.reason for r in rejections if r.recording_id.endswith("::*")}
    characterized = Counter(r["source_dataset"] for r in recordings)
    rejected = Counter(r.source_dataset for r in rejections)
    for source in sources:
        if source not in failed and not characterized[source]:
            failed[source] = (
                f"gave no recording: {rejected[source]} rejected, see "
                "results/manifests/rejected.csv"
            )
    return dict(sorted(failed.items()))


def run_summary(
    recordings: list[dict[str, Any]], rejections: list[Rejection], sources: Sequence[str] = ()
) -> dict[str, Any]:
    """Counts that show nothing was lost: characterized + rejected = everything seen;
    ``sources``: every source of the run (a source that gave no recording is named)."""
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
        "failed_sources": failed_sources(recordings, rejections, sources),
        "total_hours": round(sum(r["duration_seconds"] for r in recordings) / 3600, 4),
    }


def joined_features(
    features: Sequence[Path], acoustic: Sequence[Path], rejected_ids: set[str]
) -> list[dict[str, Any]]:
    """Each source's interaction rows with its acoustic columns, rejected recordings left out."""
    from msbench.catalog import ACOUSTIC, INTERACTION
    from msbench.tables import read_rows

    acoustic_rows = {
        row["recording_id"]: row for path in acoustic for row in read_rows(ACOUSTIC, path)
    }
    joined = []
    for path in features:
        for row in read_rows(INTERACTION, path):
            if row["recording_id"] in rejected_ids:
                continue
            extra = acoustic_rows.get(row["recording_id"], {})
            joined.append({**row, **{k: v for k, v in extra.items() if k != "recording_id"}})
    return joined


@dataclass(frozen=True)
class Collected:
    """What ``msbench collect`` writes: the characterized table and the run's manifests."""

    recordings: list[dict[str, Any]]
    rejections: list[Rejection]
    utterances: list[UtteranceRow]  # utterances.csv: every source's rows, source by source
    matrices: list[dict[str, Any]]  # speaker_similarity.jsonl, by recording
    summary: dict[str, Any]  # run_summary.json


def collect(
    features: Sequence[Path],
    acoustic: Sequence[Path],
    rejected: Sequence[Path],
    utterances: Sequence[Path],
    similarity: Sequence[Path],
    resolved: Mapping[str, Any],
) -> Collected:
    """Join, rank quality over the pool (d_N), mark eligibility, and count (see the module)."""
    from msbench.features.quality_rank import add_noise_difficulty

    rejections = read_rejections(rejected)
    joined = joined_features(features, acoustic, {r.recording_id for r in rejections})
    recordings = mark_eligibility(
        add_noise_difficulty(joined),
        resolved["eligibility"]["min_speakers"],
        resolved["acoustic"]["similarity"]["min_segment_seconds"],
    )
    rows = [row for path in sorted(utterances) for row in read_rows(SOURCE_UTTERANCES, path)]
    matrices = sorted(
        (row for path in similarity for row in read_rows(ACOUSTIC_SIMILARITY, path)),
        key=lambda r: r["recording_id"],
    )
    sources = sorted({Path(path).parent.name for path in features})
    summary = run_summary(recordings, rejections, sources)
    return Collected(recordings, rejections, rows, matrices, summary)


def require_eligible(summary: Mapping[str, Any], where: Path) -> None:
    """InputError when no recording is eligible: the pool and selection need one."""
    from msbench.errors import InputError

    if not summary["recordings_eligible"]:
        raise InputError(
            where,
            f"no eligible recording: {summary['recordings_in']} in, "
            f"{summary['recordings_rejected']} rejected, {summary['recordings_ineligible']} "
            f"ineligible (left out by code: {summary['left_out_by_code'] or 'none'})",
            fix="see rejected.csv and recordings.csv beside it; the pool and selection need at least one",
        )
