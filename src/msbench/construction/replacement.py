"""Replacement after quality control: keep an accepted selection, replace its rejected recordings by look-alikes.

Files (both optional, named in ``selection.keep`` and ``selection.qc_rejected``):

* the *kept* selection: an earlier ``benchmark.csv`` (only ``recording_id`` is read),
  whole or only its accepted rows (the review page's export);
* the *QC rejections*: TSV ``recording_id<TAB>reason``, ``#`` comments allowed.

With a kept selection, every QC-rejected recording (with a profile) is replaced,
listed in the kept file or not; without one, rejections only leave the pool.

A rejected recording's replacement is chosen among the closest profiles the pool
offers: profile distance is ``(Hamming, ordinal)`` = (number of axes whose labels
differ, sum of absolute label-index differences). For each rejected recording
``q`` with neighbourhood ``N_q`` (pool candidates, not kept, at the smallest
distance to ``q``), the integer program gets ``sum_{i in N_q} x_i >= m``, ``m`` the
number of rejected recordings sharing that neighbourhood. After solving, pairs
are matched greedily (closest first, ties by recording id).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.catalog import KEPT
from msbench.construction.condition_space import AXIS_ORDER
from msbench.errors import InputError
from msbench.tables import read_rows
from msbench.textio import read_text, split_lines


def read_qc_rejections(path: str | Path | None) -> dict[str, str]:
    if not path:
        return {}
    rejected: dict[str, str] = {}
    for number, line in enumerate(split_lines(read_text(path)), start=1):
        if not line.strip() or line.lstrip().startswith("#") or line.startswith("recording_id\t"):
            continue
        recording, _, reason = line.partition("\t")
        if not recording.strip() or "::" not in recording:
            raise InputError(
                path,
                f"expected recording_id<TAB>reason, got {line!r}",
                where=f"line {number}",
                fix="ids look like source::session",
            )
        rejected[recording.strip()] = reason.strip() or "failed quality control"
    return rejected


def read_kept(path: str | Path | None) -> list[str]:
    if not path:
        return []
    return sorted(str(row["recording_id"]) for row in read_rows(KEPT, path))


def profile_distance(a: Mapping[str, str], b: Mapping[str, str]) -> tuple[int, int]:
    hamming = sum(a[axis] != b[axis] for axis in AXIS_ORDER)
    ordinal = sum(abs(int(a[axis][1:]) - int(b[axis][1:])) for axis in AXIS_ORDER)
    return hamming, ordinal


def replacement_groups(
    rejected: Sequence[Mapping[str, Any]], pool: Sequence[Mapping[str, Any]], kept: set[str]
) -> list[tuple[list[str], int]]:
    """Neighbourhood constraints ``(candidate ids, how many)`` for the rejected recordings."""
    free = [row for row in pool if row["recording_id"] not in kept]
    counts: dict[tuple[str, ...], int] = defaultdict(int)
    for row in rejected:
        distances = [
            (profile_distance(row["conditions"], c["conditions"]), c["recording_id"]) for c in free
        ]
        if not distances:
            continue
        best = min(d for d, _ in distances)
        counts[tuple(sorted(i for d, i in distances if d == best))] += 1
    return [(list(ids), count) for ids, count in sorted(counts.items())]


def match_replacements(
    rejected: Sequence[Mapping[str, Any]], added: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """Pair each rejected recording with a newly selected one, closest profiles first."""
    options = sorted(
        (
            profile_distance(r["conditions"], a["conditions"]),
            r["recording_id"],
            a["recording_id"],
            r,
            a,
        )
        for r in rejected
        for a in added
    )
    used_rejected: set[str] = set()
    used_added: set[str] = set()
    pairs = []
    for distance, rejected_id, added_id, r, a in options:
        if rejected_id in used_rejected or added_id in used_added:
            continue
        used_rejected.add(rejected_id)
        used_added.add(added_id)
        pairs.append(
            {
                "rejected": rejected_id,
                "rejected_profile": r["profile"],
                "replacement": added_id,
                "replacement_profile": a["profile"],
                "hamming_distance": distance[0],
            }
        )
    for r in rejected:
        if r["recording_id"] not in used_rejected:
            pairs.append(
                {
                    "rejected": r["recording_id"],
                    "rejected_profile": r["profile"],
                    "replacement": None,
                    "replacement_profile": None,
                    "hamming_distance": None,
                }
            )
    return sorted(pairs, key=lambda p: p["rejected"])
