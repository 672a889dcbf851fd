"""From a candidate pool (and the quality-control files) to the selected benchmark rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from msbench.construction.condition_space import ConditionSpace
from msbench.construction.manifests import flatten_conditions
from msbench.construction.replacement import (
    match_replacements,
    read_kept,
    read_qc_rejections,
    replacement_groups,
)
from msbench.construction.selection.infeasibility import SelectionInfeasible, source_share_conflict
from msbench.construction.selection.problem import build_problem
from msbench.construction.selection.solve import solve_selection

#: Wall-clock facts: logged, not written to selection_report.json, which must be byte-identical.
TIMING_KEYS = ("relaxation_seconds", "solve_seconds")


@dataclass(frozen=True)
class Selection:
    rows: list[dict[str, Any]]  # benchmark.csv rows (with ``replaces``)
    selected: list[Mapping[str, Any]]  # the pool rows chosen
    report: dict[str, Any]
    timing: dict[str, float]


def emptied_ranges(
    earlier: Sequence[Mapping[str, Any]], selected: Sequence[Mapping[str, Any]]
) -> list[str]:
    """Ranges the accepted (earlier) selection covered that the new one no longer does.

    A QC re-run empties a range when a rejected recording was its only member
    and the pool offers no replacement with a close enough profile.
    """
    before = {label for row in earlier for label in (row.get("conditions") or {}).values() if label}
    after = {label for row in selected for label in (row.get("conditions") or {}).values() if label}
    return [
        f"range {label} is now empty: the accepted selection covered it, the re-run has no "
        "recording in it (no replacement with a close profile in the pool)"
        for label in sorted(before - after)
    ]


def select_benchmark(
    pool: Sequence[Mapping[str, Any]],
    labelled: Sequence[Mapping[str, Any]],
    space: ConditionSpace,
    selection: Mapping[str, Any],
) -> Selection:
    """Keep ``selection.keep`` minus ``selection.qc_rejected``, replace the rejected, solve."""
    kept = read_kept(selection.get("keep"))
    qc = read_qc_rejections(selection.get("qc_rejected"))
    by_id = {row["recording_id"]: row for row in labelled}
    # with a kept selection, every QC-rejected recording is replaced, whether the kept file
    # still lists it (a frozen benchmark.csv) or not (the review page's accepted subset)
    rejected_ids = sorted(set(qc)) if kept else []
    rejected_kept = [by_id[r] for r in rejected_ids if r in by_id and by_id[r].get("profile")]
    keep = [r for r in kept if r not in qc]
    groups = replacement_groups(rejected_kept, pool, set(keep))
    conflict = source_share_conflict(
        len({row["source_dataset"] for row in pool}), selection["max_source_share"]
    )
    if conflict:
        raise SelectionInfeasible([], note=conflict)
    utilities = [float(r["U"]) for r in pool]
    problem = build_problem(pool, utilities, space, selection, keep, groups)
    result = solve_selection(problem, selection)
    selected = [pool[i] for i in result.selected]
    chosen = {row["recording_id"] for row in selected}
    pairs = match_replacements(
        rejected_kept, [r for r in selected if r["recording_id"] not in set(keep)]
    )
    replaces = {p["replacement"]: p["rejected"] for p in pairs if p["replacement"]}
    timing = {key: result.report.pop(key) for key in TIMING_KEYS}
    pool_ids = {row["recording_id"] for row in pool}
    report = {
        **result.report,
        "kept_from_earlier_selection": len([r for r in keep if r in chosen]),
        "kept_not_in_pool": sorted(r for r in keep if r not in pool_ids),
        "quality_control_rejections": len(qc),
        "replacements": pairs,
        "quality_control_warnings": emptied_ranges(
            [by_id[r] for r in (*kept, *rejected_ids) if r in by_id], selected
        ),
    }
    rows = [
        {**flatten_conditions(r), "replaces": replaces.get(r["recording_id"])} for r in selected
    ]
    return Selection(rows, selected, report, timing)
