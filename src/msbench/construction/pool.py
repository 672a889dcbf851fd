"""The candidate pool: eligible recordings, thinned so that no region or source dominates.

Steps, each recording left out gets its reason (``pool_reason``):

1. *Eligibility*: characterized as eligible (enough speakers, T defined), a
   label on every axis, duration within ``[min_duration_seconds,
   max_duration_seconds]``, not rejected by quality control.
2. *Crowded cells*: at most ``max_per_profile`` candidates per P-O-S-T-N
   profile. Within a crowded cell, candidates are taken round-robin over
   sources (sources in name order, each source's recordings in a seeded random
   order), so one corpus cannot fill a cell alone.
3. *Dominant sources*: while a source holds more than ``max_source_share`` of
   the pool's hours, its candidate in the most crowded cell is dropped
   (ties: seeded order), except candidates whose removal would empty a range of
   some axis: coverage wins over balance, and the report says so.

Everything is deterministic for a given ``seed``: the random order comes from
``numpy.random.default_rng(seed)`` applied to rows sorted by ``recording_id``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from msbench.construction.condition_space import AXIS_ORDER
from msbench.eligibility import Reason, cell_full, pool_exclusion, source_over_share


@dataclass
class PoolResult:
    candidates: list[dict[str, Any]]
    excluded: dict[str, Reason] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _round_robin_by_source(
    rows: list[dict[str, Any]], cap: int, rng: np.random.Generator
) -> tuple[list, list]:
    by_source: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_source[row["source_dataset"]].append(row)
    queues = []
    for source in sorted(by_source):
        members = by_source[source]
        queues.append([members[i] for i in rng.permutation(len(members))])
    kept: list[dict[str, Any]] = []
    while len(kept) < cap and any(queues):
        for queue in queues:
            if queue and len(kept) < cap:
                kept.append(queue.pop(0))
    dropped = [row for queue in queues for row in queue]
    return kept, dropped


def _range_counts(rows: Sequence[Mapping[str, Any]]) -> Counter[str]:
    return Counter(label for row in rows for label in row["conditions"].values())


def _balance_sources(
    candidates: list[dict[str, Any]], share: float, order: Mapping[str, int], result: PoolResult
) -> list[dict[str, Any]]:
    pool = {row["recording_id"]: row for row in candidates}
    hours: defaultdict[str, float] = defaultdict(float)
    for row in candidates:
        hours[row["source_dataset"]] += float(row["duration_seconds"])
    ranges = _range_counts(candidates)

    def over_cap(source: str) -> bool:
        return hours[source] > share * sum(hours.values()) + 1e-9

    while len(hours) >= 2:
        source = max(sorted(hours), key=lambda name: hours[name])
        if not over_cap(source):
            break
        cells = Counter(row["profile"] for row in pool.values())
        queue = sorted(
            (row for row in pool.values() if row["source_dataset"] == source),
            key=lambda row: (-cells[row["profile"]], -order[row["recording_id"]]),
        )
        removed = 0
        for row in queue:
            if not over_cap(source):
                break
            labels = row["conditions"].values()
            if any(ranges[label] <= 1 for label in labels):
                continue
            del pool[row["recording_id"]]
            hours[source] -= float(row["duration_seconds"])
            ranges.subtract(labels)
            removed += 1
            result.excluded[row["recording_id"]] = source_over_share(source, share, row["profile"])
        if not removed:
            result.notes.append(
                f"source {source!r} keeps {hours[source] / sum(hours.values()):.1%} of the pool "
                f"hours (cap {share:.0%}): each remaining candidate is the last of some range"
            )
            break
    return list(pool.values())


def build_pool(
    rows: Sequence[dict[str, Any]], settings: Mapping[str, Any], qc_rejected: Mapping[str, str]
) -> PoolResult:
    ordered = sorted(rows, key=lambda row: row["recording_id"])
    rng = np.random.default_rng(settings["seed"])
    order = {
        row["recording_id"]: int(rank)
        for row, rank in zip(ordered, rng.permutation(len(ordered)), strict=False)
    }
    result = PoolResult(candidates=[])
    eligible = []
    for row in ordered:
        reason = pool_exclusion(row, settings, qc_rejected, AXIS_ORDER)
        if reason:
            result.excluded[row["recording_id"]] = reason
        else:
            eligible.append(row)

    by_cell: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in eligible:
        by_cell[row["profile"]].append(row)
    thinned = []
    for cell in sorted(by_cell):
        cell_rng = np.random.default_rng(
            [settings["seed"], len(by_cell[cell]), sum(map(ord, cell))]
        )
        kept, dropped = _round_robin_by_source(by_cell[cell], settings["max_per_profile"], cell_rng)
        thinned.extend(kept)
        for row in dropped:
            result.excluded[row["recording_id"]] = cell_full(cell, settings["max_per_profile"])
    balanced = _balance_sources(thinned, settings["max_source_share"], order, result)
    result.candidates = sorted(balanced, key=lambda row: row["recording_id"])
    return result
