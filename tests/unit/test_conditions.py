"""Condition ranges: every edge on the right side, quantile mode, and the 99 published labels."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from msbench.catalog import RELEASE_METADATA
from msbench.config import default_config
from msbench.construction.condition_space import build_condition_space, label_rows, profile_label
from msbench.tables import read_rows

SPACE = build_condition_space(default_config()["condition_space"])


@pytest.mark.parametrize(
    "axis, value, label",
    [
        ("P", 2, "P0"),
        ("P", 3, "P1"),
        ("P", 4, "P1"),
        ("P", 5, "P2"),
        ("P", 8, "P2"),
        ("P", 9, "P3"),
        ("O", 0.0, "O0"),
        ("O", 1e-6, "O1"),
        ("O", 0.099999, "O1"),
        ("O", 0.10, "O2"),
        ("O", 0.20, "O3"),
        ("O", 0.399999, "O3"),
        ("O", 0.40, "O4"),
        ("S", 0.319999, "S0"),
        ("S", 0.32, "S1"),
        ("S", 0.49, "S2"),
        ("S", 0.649999, "S2"),
        ("S", 0.65, "S3"),
        ("T", 0.46, "T0"),
        ("T", 0.450001, "T0"),
        ("T", 0.45, "T1"),
        ("T", 0.150001, "T1"),
        ("T", 0.15, "T2"),
        ("T", 0.060001, "T2"),
        ("T", 0.06, "T3"),
        ("T", 0.0, "T3"),
        ("N", 0.269999, "N0"),
        ("N", 0.27, "N1"),
        ("N", 0.51, "N2"),
        ("N", 0.74, "N3"),
    ],
)
def test_boundaries(axis: str, value: float, label: str):
    assert SPACE.axis(axis).label(value) == label


def test_values_are_binned_as_written_to_six_decimals():
    # 0.1 + 0.2 - 0.15 = 0.15000000000000002 in binary; the manifest shows 0.15 -> T2
    assert SPACE.axis("T").label(0.1 + 0.2 - 0.15) == "T2"


def test_missing_feature_leaves_axis_unlabelled():
    row = {
        "num_speakers": 3,
        "overlap_ratio": 0.0,
        "speaker_similarity_max": None,
        "speaker_switch_q25": 0.1,
        "noise_difficulty": 0.5,
    }
    (labelled,) = label_rows([row], SPACE)
    assert labelled["conditions"]["S"] is None
    assert labelled["profile"] is None
    assert (
        profile_label({"P": "P2", "O": "O3", "S": "S2", "T": "T3", "N": "N3"}) == "P2-O3-S2-T3-N3"
    )


def test_quantile_mode_uses_pool_quantiles():
    settings = default_config()["condition_space"]
    settings["axes"]["S"] = {"field": "speaker_similarity_max", "quantiles": [0.25, 0.5, 0.75]}
    rows = [{"speaker_similarity_max": v / 100} for v in range(0, 101)]
    space = build_condition_space(settings, rows)
    assert space.axis("S").edges == (0.25, 0.5, 0.75)
    assert space.axis("S").mode == "quantile"
    assert space.axis("S").label(0.2499) == "S0" and space.axis("S").label(0.25) == "S1"
    assert space.to_yaml_dict()["axes"]["S"]["edges"] == [0.25, 0.5, 0.75]


def test_official_release_labels_are_reproduced(shared_data: Path, tmp_path: Path):
    source = shared_data / "msbench-release" / "metadata.jsonl"
    published = read_rows(RELEASE_METADATA, source)
    out = tmp_path / "rebinned.jsonl"
    result = subprocess.run(
        [sys.executable, "-m", "msbench.cli", "bin", "--features", str(source), "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    rebinned = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rebinned) == 99
    mismatches = [
        (p["recording_id"], axis)
        for p, r in zip(published, rebinned, strict=False)
        for axis in "POSTN"
        if p["conditions"][axis] != r["conditions"][axis]
    ]
    assert mismatches == []
    # every input field kept, exactly
    for p, r in zip(published, rebinned, strict=False):
        assert {k: v for k, v in r.items() if k != "profile"} == p
        assert r["profile"] == "-".join(p["conditions"][a] for a in "POSTN")
