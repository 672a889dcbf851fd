"""Candidate pool caps and reasons, utility components, and quality-control replacement."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from msbench.catalog import BENCHMARK, CANDIDATES
from msbench.config import default_config
from msbench.construction.condition_space import build_condition_space
from msbench.construction.manifests import flatten_conditions
from msbench.construction.pool import build_pool
from msbench.construction.utility import score_pool
from msbench.stages import select
from msbench.tables import read_rows, write_rows

CONFIG = default_config()
SPACE = build_condition_space(CONFIG["condition_space"])


def row(rid: str, source: str, profile: str, seconds: float = 600, **extra) -> dict:
    conditions = dict(zip("POSTN", profile.split("-"), strict=False))
    return {
        "recording_id": rid,
        "source_dataset": source,
        "language": "English",
        "scenario": "Meeting",
        "duration_seconds": seconds,
        "conditions": conditions,
        "profile": profile,
        "eligible": True,
        "ineligible_reasons": "",
        **extra,
    }


def test_pool_caps_cells_round_robin_and_records_reasons():
    rows = [row(f"big::{i}", "big", "P0-O1-S1-T1-N1") for i in range(6)]
    rows += [
        row("small::0", "small", "P0-O1-S1-T1-N1"),
        row("x::short", "x", "P1-O1-S1-T1-N1", seconds=5),
    ]
    rows += [
        row(
            "x::solo",
            "x",
            "P1-O1-S1-T1-N1",
            eligible=False,
            ineligible_reasons="fewer than 2 speakers (1)",
        )
    ]
    rows += [row("x::qc", "x", "P2-O1-S1-T1-N1")]
    settings = {
        **CONFIG["pool"],
        "max_per_profile": 3,
        "min_duration_seconds": 30,
        "max_source_share": 1.0,
    }
    result = build_pool(rows, settings, {"x::qc": "clipping"})
    ids = [r["recording_id"] for r in result.candidates]
    assert "small::0" in ids  # round-robin: the small source gets a seat in the crowded cell
    assert sum(i.startswith("big::") for i in ids) == 2
    assert result.excluded["x::short"].message == "shorter than 30 s"
    assert result.excluded["x::short"].code == "too_short"
    assert result.excluded["x::solo"].message.startswith("ineligible: fewer than 2 speakers")
    assert result.excluded["x::solo"].code == "ineligible"
    assert result.excluded["x::qc"].message == "quality control: clipping"
    assert result.excluded["x::qc"].code == "qc_rejected"
    assert (
        sum("profile cell P0-O1-S1-T1-N1 full" in r.message for r in result.excluded.values()) == 4
    )
    # deterministic for a seed
    assert [
        r["recording_id"] for r in build_pool(rows, settings, {"x::qc": "clipping"}).candidates
    ] == ids


def test_source_share_cap_keeps_range_coverage():
    rows = [row(f"big::{i}", "big", f"P{i % 2}-O1-S1-T1-N1") for i in range(8)]
    rows += [row("small::0", "small", "P2-O1-S1-T1-N1")]
    result = build_pool(rows, {**CONFIG["pool"], "max_source_share": 0.5}, {})
    sources = [r["source_dataset"] for r in result.candidates]
    # big keeps one candidate per range it alone covers (P0, P1): 2 of 3 = 67 % > 50 %, noted
    assert sources.count("big") == 2 and "small" in sources
    assert result.notes and "each remaining candidate is the last of some range" in result.notes[0]


def test_utility_components_by_hand():
    pool = [
        row("a::1", "a", "P0-O1-S1-T1-N1"),
        row("a::2", "a", "P0-O1-S1-T1-N1"),
        row("b::1", "b", "P3-O4-S3-T3-N3", seconds=300),
    ]
    scores = score_pool(pool, SPACE, CONFIG["utility"]["weights"], CONFIG["utility"]["challenging"])
    # C: a's ranges hold 2 candidates, the rarest hold 1 -> 1/2 on every axis; b is rarest everywhere
    assert [s["C"] for s in scores] == pytest.approx([0.5, 0.5, 1.0])
    # M: b is challenging on all 5 axes -> (5-1)/4 = 1; a on none -> 0
    assert [s["M"] for s in scores] == pytest.approx([0.0, 0.0, 1.0])
    # R: source hours a = 1200 s, b = 300 s -> min/own
    assert [s["R"] for s in scores] == pytest.approx([0.25, 0.25, 1.0])
    # D: b is far from the two a's; the a's are at distance 0 from each other
    assert scores[2]["D"] == pytest.approx(1.0) and scores[0]["D"] == pytest.approx(0.5)
    assert scores[2]["U"] == pytest.approx(0.40 + 0.25 + 0.20 + 0.15)


def test_qc_rejected_recording_is_replaced_by_closest_profile(tmp_path: Path):
    pool = [
        row("s::keep1", "s", "P0-O1-S1-T1-N1", U=0.5),
        row("s::keep2", "s", "P1-O2-S1-T1-N1", U=0.5),
        row("s::bad", "s", "P2-O3-S2-T3-N3", U=0.9),
        row("s::near", "s", "P2-O3-S2-T2-N3", U=0.1),
        row("s::far", "s", "P0-O0-S0-T0-N0", U=0.2),
    ]
    pool_csv = tmp_path / "candidate_pool.csv"
    # the QC-rejected recording is no longer a candidate
    write_rows(
        CANDIDATES, pool_csv, (flatten_conditions(r) for r in pool if r["recording_id"] != "s::bad")
    )
    labelled = tmp_path / "labelled.jsonl"
    labelled.write_text("".join(__import__("json").dumps(r) + "\n" for r in pool))
    space = tmp_path / "condition_space.yaml"
    space.write_text(yaml.safe_dump(SPACE.to_yaml_dict()))
    kept = tmp_path / "accepted.csv"
    kept.write_text("recording_id\ns::keep1\ns::keep2\ns::bad\n")
    qc = tmp_path / "qc.tsv"
    qc.write_text("# recording_id<TAB>reason\ns::bad\tclipped audio\n")
    settings = {
        **CONFIG,
        "selection": {
            **CONFIG["selection"],
            "min_hours": 0.0,
            "max_hours": 0.55,
            "min_count_per_range": 0,
            "min_hours_per_range": 0.0,
            "max_source_share": 1.0,
            "keep": str(kept),
            "qc_rejected": str(qc),
        },
    }
    select.run(pool_csv, labelled, space, tmp_path / "out", settings=json.dumps(settings))
    selected = [r["recording_id"] for r in read_rows(BENCHMARK, tmp_path / "out" / "benchmark.csv")]
    # 0.55 h fits three 10-min recordings: the two kept ones and the closest look-alike of s::bad
    assert selected == ["s::keep1", "s::keep2", "s::near"]
    report = __import__("json").loads((tmp_path / "out" / "selection_report.json").read_text())
    assert report["replacements"] == [
        {
            "rejected": "s::bad",
            "rejected_profile": "P2-O3-S2-T3-N3",
            "replacement": "s::near",
            "replacement_profile": "P2-O3-S2-T2-N3",
            "hamming_distance": 1,
        }
    ]
    assert report["kept_from_earlier_selection"] == 2
    # s::bad was the only T3 recording: its look-alike is T2, so T3 is now empty, and it says so
    assert report["quality_control_warnings"][0].startswith("range T3 is now empty")


def test_a_qc_rerun_that_empties_a_range_says_so(tmp_path: Path, capsys):
    from msbench.construction.selection.selected import emptied_ranges

    earlier = [row("s::keep1", "s", "P0-O1-S1-T1-N1"), row("s::bad", "s", "P2-O3-S2-T3-N3")]
    now = [row("s::keep1", "s", "P0-O1-S1-T1-N1"), row("s::near", "s", "P2-O3-S2-T2-N3")]
    warnings = emptied_ranges(earlier, now)
    assert warnings == [
        "range T3 is now empty: the accepted selection covered it, the re-run has no recording "
        "in it (no replacement with a close profile in the pool)"
    ]
