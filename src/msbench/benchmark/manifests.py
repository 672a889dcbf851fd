"""Column orders of the benchmark manifests, and the official ``metadata.jsonl`` row.

Official MS-Bench release fields come first in every table, with the release's
names. In CSV the ``conditions`` mapping is flattened to columns P, O, S, T, N.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msbench.benchmark.conditions import AXIS_ORDER
from msbench.records import FEATURE_FIELDS, IDENTITY_FIELDS

OFFICIAL_FIELDS = (*IDENTITY_FIELDS, "conditions", *FEATURE_FIELDS)

_FIRST = (*IDENTITY_FIELDS, *AXIS_ORDER, "profile", *FEATURE_FIELDS)

CANDIDATE_COLUMNS = (*_FIRST, "C", "M", "D", "R", "U", "conditions")
BENCHMARK_COLUMNS = (*_FIRST, "C", "M", "D", "R", "U", "replaces")


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
            value = round(float(value), 3)
        elif name == "conditions":
            value = {axis: (value or {}).get(axis) for axis in AXIS_ORDER}
        elif name == "noise_difficulty" and value is not None:
            value = float(value)
        elif isinstance(value, float):
            value = round(value, 6)
        out[name] = value
    return out


def recordings_columns(extra: list[str]) -> tuple[str, ...]:
    """recordings.csv: official fields, then every other feature column, then the pool status."""
    tail = ("eligible", "ineligible_reasons", "in_pool", "pool_reason", "selected")
    middle = [c for c in extra if c not in _FIRST and c not in tail and c != "conditions"]
    return (*_FIRST, *middle, *tail)
