"""Ratios of sums: units -> recordings, conditions and systems.

Every rate above a unit is a ratio of sums over its units (DER: error seconds
summed / scored seconds summed; the WER family: errors summed / reference
tokens summed), never a mean of per-unit rates: averaging rates gives a short
unit the weight of a long one and reorders leaderboards. Macro averages (mean
of per-unit rates) are reported beside, labelled ``*_macro``. Excluded units
take no part in the sums; they are counted.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from msbench.columns import (
    DER_PARTS,
    DIAGNOSTIC_INT_COLUMNS,
    DIAGNOSTIC_SECONDS_COLUMNS,
    WER_FAMILY,
    WER_PARTS,
)
from msbench.columns import SCORE_COUNT_COLUMNS as COUNT_COLUMNS
from msbench.columns import SCORE_RATE_COLUMNS as RATE_COLUMNS
from msbench.metrics import METRICS
from msbench.scoring.pair import Scores
from msbench.timeline import to_seconds


def score_columns(scores: Scores) -> dict[str, Any]:
    """A unit's counts as flat columns, plus its own rates."""
    row: dict[str, Any] = {}
    for prefix, der in (("der", scores.der), ("der0", scores.der_collar0)):
        row.update({f"{prefix}_{p}": getattr(der, p) for p in DER_PARTS})
    for key, short in WER_FAMILY.items():
        counts = getattr(scores.words, key) if scores.words else None
        row.update({f"{short}_{p}": getattr(counts, p) if counts else None for p in WER_PARTS})
    row.update(diagnostic_columns(scores))
    return {**row, **rates(row)}


def diagnostic_columns(scores: Scores) -> dict[str, Any]:
    """The diagnostics counts of a unit (words counts None when a side has no words)."""
    counts, checks = scores.diagnostics, scores.diagnostics.checks
    row: dict[str, Any] = {
        k: getattr(counts, k) if counts.words else None for k in DIAGNOSTIC_INT_COLUMNS[:9]
    }
    seconds = [counts.t_ref, counts.t_hyp, checks.ov_time, checks.ov_covered]
    seconds += [checks.ov_speaker_time, checks.ov_speaker_covered]
    row.update(dict(zip(DIAGNOSTIC_SECONDS_COLUMNS, map(to_seconds, seconds), strict=True)))
    row["ov_boundaries"] = checks.ov_boundaries
    row["ov_boundaries_localised"] = checks.ov_boundaries_localised
    return row


def rates(sums: Mapping[str, Any]) -> dict[str, float | None]:
    """The rate of every metric of :mod:`msbench.metrics` on summed counts (fractions; None
    where the denominator is 0 or missing)."""
    return {m.name: m.rate(sums) for m in METRICS}


def sum_units(rows: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Counts summed over the scored (not excluded) units, rates of the sums, unit counts."""
    rows = list(rows)
    scored = [r for r in rows if r["status"] != "excluded"]
    sums: dict[str, Any] = {c: sum(r.get(c) or 0 for r in scored) for c in COUNT_COLUMNS}
    for short in WER_FAMILY.values():  # a family missing on a worded unit is missing in the sum
        if any(
            r.get(f"{short}_length") is None and r.get("wer_length") is not None for r in scored
        ):
            sums.update(dict.fromkeys((f"{short}_{p}" for p in WER_PARTS), None))
    macro = {
        f"{key}_macro": (sum(r[key] for r in scored if r.get(key) is not None) / n)
        if (n := sum(1 for r in scored if r.get(key) is not None))
        else None
        for key in RATE_COLUMNS
    }
    return {
        "units": len(rows),
        "excluded": len(rows) - len(scored),
        "soft_degradation": sum(1 for r in scored if r["status"] == "degraded"),
        "units_without_speakers": sum(1 for r in scored if r.get("no_speaker_labels")),
        **sums,
        **rates(sums),
        **macro,
    }


def recording_rows(
    system_id: str, units: Sequence[Mapping[str, Any]], benchmark: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Per recording: its P-O-S-T-N labels and the sums of its units (``recordings.csv``)."""
    from msbench.columns import AXES

    return [
        {
            "system": system_id,
            "recording_id": rid,
            **{axis: benchmark.get(rid, {}).get(axis) for axis in AXES},
            **sum_units(members),
        }
        for rid, members in group_rows(units, lambda r: [r["recording_id"]]).items()
    ]


def group_rows(
    rows: Sequence[Mapping[str, Any]], key_of: Any
) -> dict[str, list[Mapping[str, Any]]]:
    groups: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        for key in key_of(row):
            groups.setdefault(key, []).append(row)
    return dict(sorted(groups.items()))
