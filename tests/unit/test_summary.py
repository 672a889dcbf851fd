"""`msbench summary` on the official release reproduces its published summary."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_official_summary(shared_data: Path):
    release = shared_data / "msbench-release"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "msbench.cli",
            "summary",
            "--manifest",
            str(release / "metadata.jsonl"),
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    published = json.loads((release / "summary.json").read_text())
    assert summary["recordings"] == 99
    assert summary["total_hours"] == 32.72
    assert summary["speaker_range"] == [2, 14]
    assert (summary["minimum_duration_minutes"], summary["maximum_duration_minutes"]) == (
        1.38,
        159.07,
    )
    assert summary["median_duration_minutes"] == 16.5
    assert summary["duration_distribution"] == published["duration_distribution"]
    assert summary["condition_distribution"] == published["condition_distribution"]
    assert summary["language_distribution"] == dict(
        sorted(published["language_distribution"].items())
    )
    assert summary["scenario_distribution"] == dict(
        sorted(published["scenario_distribution"].items())
    )
    # duration-weighted mean overlap, as we compute it (reported in the README)
    assert summary["duration_weighted_mean_overlap"] == 0.218194
