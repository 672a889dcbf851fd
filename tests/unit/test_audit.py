"""The audit: the release against itself, the release's own TextGrids, a perturbed copy,
and the similarity study on real audio."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from msbench.audit.compare import compare, join, summary
from msbench.config import default_config
from msbench.construction.condition_space import build_condition_space
from tests.helpers.paths import DEMO, SHARED_DATA, SHARED_MODELS, require_shared

RELEASE = SHARED_DATA / "msbench-release"
SPACE = build_condition_space(default_config()["condition_space"])


def release_rows() -> list[dict]:
    path = require_shared(RELEASE) / "metadata.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def msbench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "msbench.cli", *args], capture_output=True, text=True, timeout=600
    )


def test_the_release_joined_with_itself_agrees_exactly():
    rows = release_rows()
    per_axis = summary(compare(join(rows, rows), SPACE))
    assert all(
        a["joined"] == a["computed"] == a["values_agree"] == a["labels_agree"] == 99
        for a in per_axis
    )
    assert all(a["max_abs_diff"] == 0.0 for a in per_axis)


def test_a_perturbed_copy_reports_the_planted_differences():
    rows = release_rows()
    changed = [dict(r) for r in rows]
    changed[0]["overlap_ratio"] += 0.2  # aishell4::M_R003S01C01: O1 0.056 -> 0.256 (O3)
    changed[1]["num_speakers"] = 2
    del changed[2]
    result = join(
        rows, changed, {rows[2]["recording_id"]: "rejected by the rebuild: audio file not found"}
    )
    comparison = compare(result, SPACE)
    wrong = {(r["recording_id"], r["axis"]) for r in comparison if not r["value_agrees"]}
    assert wrong == {(rows[0]["recording_id"], "O"), (rows[1]["recording_id"], "P")}
    overlap = next(a for a in summary(comparison) if a["axis"] == "O")
    assert overlap["max_abs_diff"] == pytest.approx(0.2) and overlap["labels_agree"] == 97
    assert "O1->O3" in overlap["label_confusion"]
    assert result.missing == [
        {
            "recording_id": rows[2]["recording_id"],
            "why": "rejected by the rebuild: audio file not found",
        }
    ]


def test_the_release_textgrids_agree_and_s_n_are_not_computed(tmp_path: Path):
    """A rebuild table from the two shared release TextGrids (duration from the release)."""
    release = {r["recording_id"]: r for r in release_rows()}
    rebuilt = []
    for rid in ("aishell4::M_R003S01C01", "dipco_eval_U01_CH1::S06"):
        source, session = rid.split("::")
        grid = tmp_path / f"{session}.TextGrid"
        grid.write_bytes((RELEASE / "textgrids" / f"{source}__{session}.TextGrid").read_bytes())
        uem = tmp_path / f"{session}.uem"
        uem.write_text(f"{session} 1 0 {release[rid]['duration_seconds']}\n")
        (row,) = map(
            json.loads,
            msbench("describe", "--annotations", str(grid), "--uem", str(uem)).stdout.splitlines(),
        )
        rebuilt.append(
            {
                "recording_id": rid,
                **{k: row[k] for k in ("num_speakers", "overlap_ratio", "speaker_switch_q25")},
            }
        )
    features = tmp_path / "rebuilt.jsonl"
    features.write_text("".join(json.dumps(r) + "\n" for r in rebuilt))
    result = msbench(
        "audit",
        "--release",
        str(RELEASE / "metadata.jsonl"),
        "--features",
        str(features),
        "--out-dir",
        str(tmp_path / "audit"),
    )
    assert result.returncode == 0, result.stderr
    report = json.loads((tmp_path / "audit" / "audit.json").read_text())
    assert report["joined"] == 2 and len(report["release_ids_missing"]) == 97
    axes = {a["axis"]: a for a in report["axes"]}
    for axis in "POT":
        assert axes[axis]["values_agree"] == axes[axis]["labels_agree"] == 2, axis
    assert axes["S"]["computed"] == axes["N"]["computed"] == 0
    table = (tmp_path / "audit" / "audit.md").read_text()
    assert "not computed" in table and (tmp_path / "audit" / "audit.png").stat().st_size > 10_000


@pytest.mark.models
def test_similarity_study_finds_the_variant_that_made_the_values(tmp_path: Path):
    """Published S made with 1.0 s clean segments: that variant agrees exactly, 2.0 s does not."""
    from msbench.audit.similarity_study import study, variant_similarity
    from msbench.config import load_config
    from msbench.ingest.sheet import read_dataset_sheet
    from msbench.ingest.source import ingest_source

    require_shared(SHARED_MODELS)
    spec = next(s for s in read_dataset_sheet(DEMO / "datasets.tsv") if s.name == "ami")
    items = [
        i
        for i in ingest_source(spec).recordings
        if i.recording.session_id in ("dev00", "dev01", "tst00", "trn04")
    ]
    settings = load_config(None)
    settings["models"]["search_dirs"] = [str(SHARED_MODELS)]
    made = variant_similarity(items, {"name": "made", "min_segment_seconds": 1.0}, settings)
    published = {rid: v for rid, v in made.items() if v is not None}
    assert len(published) >= 3
    variants = [
        {"name": "clean2s", "min_segment_seconds": 2.0},
        {"name": "clean1s", "min_segment_seconds": 1.0},
    ]
    result = study(items, published, variants, settings, SPACE.axis("S").label)
    assert result["best"] == "clean1s"
    exact = next(v for v in result["variants"] if v["variant"] == "clean1s")
    assert exact["median_abs_diff"] == 0.0 and exact["labels_agree"] == len(published)
