"""Benchmark manifest rows: conditions flattened to columns, and the official ``metadata.jsonl`` row.

Official MS-Bench release fields come first in every table, with the release's
names. In CSV the ``conditions`` mapping is flattened to columns P, O, S, T, N.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msbench.benchmark.conditions import AXIS_ORDER
from msbench.columns import OFFICIAL_FIELDS


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
