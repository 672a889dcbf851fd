"""Benchmark manifest rows: conditions flattened to columns, and the official ``metadata.jsonl`` row.

Official MS-Bench release fields come first in every table, with the release's
names. In CSV the ``conditions`` mapping is flattened to columns P, O, S, T, N.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.columns import OFFICIAL_FIELDS
from msbench.construction.condition_space import AXIS_ORDER


def flatten_conditions(row: Mapping[str, Any]) -> dict[str, Any]:
    """Add P..N columns from the ``conditions`` mapping (kept as well, for reading back)."""
    conditions = row.get("conditions") or {}
    return {**row, **{axis: conditions.get(axis) for axis in AXIS_ORDER}}


def official_metadata_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """Exactly the release's schema and field order; durations to ms, features to 6 decimals."""
    out: dict[str, Any] = {}
    for name in OFFICIAL_FIELDS:
        value = row.get(name)
        if name == "duration_seconds":
            value = round(float(row[name]), 3)
        elif name == "conditions":
            value = {axis: (value or {}).get(axis) for axis in AXIS_ORDER}
        elif name == "noise_difficulty" and value is not None:
            value = float(value)
        elif isinstance(value, float):
            value = round(value, 6)
        out[name] = value
    return out


def recording_status(
    rows: Sequence[Mapping[str, Any]],
    in_pool: set[str],
    excluded: Mapping[str, Mapping[str, Any]],
    selected: set[str],
    axes: Sequence[tuple[str, str, float | None]],
) -> list[dict[str, Any]]:
    """Every characterized row with its eligibility, pool and selection status (codes and messages)."""
    from msbench.construction.manifests import flatten_conditions
    from msbench.eligibility import unlabelled

    table = []
    for row in rows:
        missing = unlabelled(row, axes)
        codes = [c for c in str(row.get("ineligible_codes") or "").split("; ") if c]
        codes += [reason.code for reason in missing]
        why = [r for r in str(row.get("ineligible_reasons") or "").split("; ") if r]
        why += [reason.message for reason in missing]
        pool_row = excluded.get(row["recording_id"], {})
        table.append(
            {
                **flatten_conditions(row),
                "eligible": not why,
                "ineligible_codes": "; ".join(codes),
                "ineligible_reasons": "; ".join(why),
                "in_pool": row["recording_id"] in in_pool,
                "pool_code": pool_row.get("pool_code", ""),
                "pool_reason": pool_row.get("pool_reason", ""),
                "selected": row["recording_id"] in selected,
            }
        )
    return table


def write_labelled(path: Path, rows: list[dict[str, Any]]) -> None:
    """CSV or JSONL by extension; CSV gets P..N columns after the input's own columns."""
    from msbench.catalog import LABELLED
    from msbench.columns import AXES
    from msbench.tables import write_rows

    if path.suffix == ".csv":
        columns = list(dict.fromkeys([*(rows[0] if rows else {}), *AXES]))
        write_rows(LABELLED, path, (flatten_conditions(r) for r in rows), columns, exact=True)
    else:
        write_rows(LABELLED, path, rows, exact=True)  # input values exactly as read
