"""The first hour with one's own config: partial axis overrides, one-line errors, stage defaults."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from msbench.config import complete_config, default_config, load_config
from msbench.construction.condition_space import build_condition_space
from msbench.errors import ConfigError


def test_partial_axis_override_keeps_the_axis_defaults():
    config = complete_config({"condition_space": {"axes": {"T": {"edges": [0.1, 0.2, 0.5]}}}}, "x")
    axis = config["condition_space"]["axes"]["T"]
    assert axis["field"] == "speaker_switch_q25"
    assert (axis["closed"], axis["descending"]) == ("right", True)
    space = build_condition_space(config["condition_space"])
    assert space.axis("T").label(0.05) == "T3"  # still the short-gap (challenging) end


def test_override_that_flips_an_axis_is_logged_and_a_stale_challenging_range_is_an_error(capsys):
    flipped = {"condition_space": {"axes": {"T": {"descending": False}}}}
    with pytest.raises(ConfigError, match="T3 now means the opposite end of axis T"):
        complete_config(flipped, "x")
    assert "condition_space.axes.T.descending is False (MS-Bench: True)" in capsys.readouterr().err
    fewer = {"condition_space": {"axes": {"O": {"edges": [0.2]}}}}
    with pytest.raises(ConfigError, match=r"O3 does not exist: axis O has ranges O0..O2"):
        complete_config(fewer, "x")


def test_schema_errors_are_one_line_each():
    with pytest.raises(ConfigError) as caught:
        complete_config(
            {"selection": {"solver": "gurobi", "min_hours": "a"}, "bogus": 1}, "my.yaml"
        )
    lines = str(caught.value).splitlines()
    assert lines == [
        "my.yaml: (top level): unknown key(s) bogus; allowed: acoustic, audit, baseline, compare, condition_space, datasets, diagnostics, "
        "eligibility, export, ingest, models, pool, probes, release, review, scoring, selection, slurm_submit_window_min, strict_sources, systems, units, utility",
        "my.yaml: selection.min_hours: expected number, got str 'a'",
        "my.yaml: selection.solver: 'gurobi' is not allowed; allowed: cbc, highs",
    ]


def test_one_speaker_is_below_the_p_range_not_p0():
    space = build_condition_space(default_config()["condition_space"])
    assert space.axis("P").label(1) is None
    assert space.axis("P").label(2) == "P0"
    assert space.axis("P").describe_ranges()[0] == {"label": "P0", "interval": "[2, 3.0)"}


def test_stages_by_hand_read_config_config_yaml_and_say_so(tmp_path: Path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.yaml").write_text(
        "condition_space: {axes: {P: {edges: [4, 6, 10]}}}\n"
    )
    rows = tmp_path / "rows.jsonl"
    rows.write_text('{"recording_id": "a::1", "num_speakers": 3}\n')
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "msbench.cli",
            "bin",
            "--features",
            str(rows),
            "--out",
            str(tmp_path / "out.jsonl"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "msbench: config: config/config.yaml" in result.stderr
    assert '"P": "P0"' in (tmp_path / "out.jsonl").read_text()  # 3 speakers: below the edge 4
    axes = load_config(tmp_path / "config" / "config.yaml")["condition_space"]["axes"]
    assert axes["P"]["edges"] == [4, 6, 10] and axes["P"]["minimum"] == 2


def test_a_shortest_voice_above_the_longest_is_an_error():
    with pytest.raises(ConfigError, match=r"probes.voice_min_seconds \(5.0\) is above"):
        complete_config({"probes": {"voice_min_seconds": 5.0}}, "x")
    assert (
        complete_config({"probes": {"voice_min_seconds": 1.0}}, "x")["probes"]["voice_max_seconds"]
        == 4.0
    )
