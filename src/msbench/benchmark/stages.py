"""Benchmark-construction stages behind ``msbench bin|pool|select|report``: read, call, write."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from msbench.benchmark.conditions import (
    ConditionSpace,
    build_condition_space,
    label_rows,
    missing_axes,
    space_from_yaml_dict,
)
from msbench.benchmark.coverage_figure import plot_coverage
from msbench.benchmark.manifests import (
    BENCHMARK_COLUMNS,
    CANDIDATE_COLUMNS,
    flatten_conditions,
    official_metadata_row,
    recordings_columns,
)
from msbench.benchmark.pool import build_pool
from msbench.benchmark.qc import (
    match_replacements,
    read_kept,
    read_qc_rejections,
    replacement_groups,
)
from msbench.benchmark.selection import solve_selection
from msbench.benchmark.summary import summarize
from msbench.benchmark.utility import score_pool
from msbench.tables import read_table, write_csv, write_table_jsonl
from msbench.textio import read_text, write_atomic, write_json, write_jsonl

#: Wall-clock facts: logged, not written to selection_report.json, which must be byte-identical.
TIMING_KEYS = ("relaxation_seconds", "solve_seconds")


def _write_table(path: Path, rows: list[dict[str, Any]]) -> None:
    """CSV or JSONL by extension; CSV gets P..N columns after the official ones."""
    if path.suffix == ".csv":
        columns = list(dict.fromkeys([*(rows[0] if rows else {}), "P", "O", "S", "T", "N"]))
        write_csv(path, (flatten_conditions(r) for r in rows), columns, exact=True)
    else:
        write_jsonl(path, rows)  # input values exactly as read


def read_space(path: Path) -> ConditionSpace:
    return space_from_yaml_dict(yaml.safe_load(read_text(path)))


def run_bin(features: Path, out: Path, settings: Mapping[str, Any], space_out: Path | None) -> None:
    rows = read_table(features)
    pool_rows = [row for row in rows if row.get("eligible", True)]
    space = build_condition_space(settings["condition_space"], pool_rows)
    _write_table(out, label_rows(rows, space))
    if space_out:
        write_atomic(
            space_out, yaml.safe_dump(space.to_yaml_dict(), sort_keys=False, allow_unicode=True)
        )


def run_pool(
    labelled: Path, space_path: Path, out: Path, excluded_out: Path, settings: Mapping[str, Any]
) -> None:
    space = read_space(space_path)
    qc = read_qc_rejections(settings["selection"].get("qc_rejected"))
    result = build_pool(read_table(labelled), settings["pool"], qc)
    utility = settings["utility"]
    scores = score_pool(result.candidates, space, utility["weights"], utility["challenging"])
    candidates = [{**row, **score} for row, score in zip(result.candidates, scores, strict=False)]
    write_csv(out, (flatten_conditions(r) for r in candidates), CANDIDATE_COLUMNS)
    write_table_jsonl(
        excluded_out,
        (
            {"recording_id": rid, "pool_reason": reason}
            for rid, reason in sorted(result.excluded.items())
        ),
    )
    if result.notes:
        write_json(excluded_out.with_suffix(".notes.json"), result.notes)


def run_select(
    pool_path: Path, labelled: Path, space_path: Path, out_dir: Path, settings: Mapping[str, Any]
) -> None:
    selection = settings["selection"]
    space = read_space(space_path)
    pool = read_table(pool_path)
    kept = read_kept(selection.get("keep"))
    qc = read_qc_rejections(selection.get("qc_rejected"))
    by_id = {row["recording_id"]: row for row in read_table(labelled)}
    rejected_kept = [by_id[r] for r in kept if r in qc and r in by_id and by_id[r].get("profile")]
    keep = [r for r in kept if r not in qc]
    groups = replacement_groups(rejected_kept, pool, set(keep))
    result = solve_selection(pool, [float(r["U"]) for r in pool], space, selection, keep, groups)
    chosen = set(result.selected)
    selected = [row for row in pool if row["recording_id"] in chosen]
    pairs = match_replacements(
        rejected_kept, [r for r in selected if r["recording_id"] not in set(keep)]
    )
    replaces = {p["replacement"]: p["rejected"] for p in pairs if p["replacement"]}
    timing = {key: result.report.pop(key) for key in TIMING_KEYS}
    print(
        f"selection timing (s): {json.dumps(timing)}", file=sys.stderr
    )  # kept out of the manifest
    report = {
        **result.report,
        "kept_from_earlier_selection": len([r for r in keep if r in chosen]),
        "kept_not_in_pool": sorted(
            r for r in keep if r not in {row["recording_id"] for row in pool}
        ),
        "quality_control_rejections": len(qc),
        "replacements": pairs,
    }
    rows = [
        {**flatten_conditions(r), "replaces": replaces.get(r["recording_id"])} for r in selected
    ]
    write_csv(out_dir / "benchmark.csv", rows, BENCHMARK_COLUMNS)
    write_table_jsonl(out_dir / "metadata.jsonl", (official_metadata_row(r) for r in selected))
    write_json(out_dir / "selection_report.json", report)


def run_report(
    labelled: Path,
    pool_path: Path,
    excluded: Path,
    benchmark: Path,
    space_path: Path,
    out_dir: Path,
) -> None:
    space = read_space(space_path)
    rows = read_table(labelled)
    in_pool = {row["recording_id"] for row in read_table(pool_path)}
    reasons = {row["recording_id"]: row["pool_reason"] for row in read_table(excluded)}
    selected_rows = read_table(benchmark)
    selected = {row["recording_id"] for row in selected_rows}
    table = []
    for row in rows:
        why = [r for r in str(row.get("ineligible_reasons") or "").split("; ") if r]
        why += missing_axes(row["conditions"], space)
        table.append(
            {
                **flatten_conditions(row),
                "eligible": not why,
                "ineligible_reasons": "; ".join(why),
                "in_pool": row["recording_id"] in in_pool,
                "pool_reason": reasons.get(row["recording_id"], ""),
                "selected": row["recording_id"] in selected,
            }
        )
    extra = list(rows[0]) if rows else []
    write_csv(out_dir / "recordings.csv", table, recordings_columns(extra))
    chosen = [row for row in rows if row["recording_id"] in selected]
    write_json(out_dir / "summary.json", summarize(chosen))
    plot_coverage(chosen, space, out_dir / "coverage.png")
