"""Round four's remaining cases (issue 48), each written from its description: a hypothesis that
reaches far past the reference by its end alone, a recordings.jsonl cut mid-line read by the
batch planner, a results path that is a file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from msbench.errors import InputError
from msbench.records import Segment
from msbench.scoring.pair import score_pair
from tests.helpers.paths import REPO


def test_a_segment_reaching_far_by_its_end_is_noted():
    """One segment from 0 to 36,000 s (DER 2375) passed without a word: its start is not far."""
    ref = [Segment("s", 0.0, 30.0, "A", "hello there")]
    hyp = [Segment("s", 0.0, 36_000.0, "A", "hello there")]
    notes = score_pair(ref, hyp)["notes"]
    assert any(
        "past the reference's last end (30.000 s), the farthest to 36000.000 s" in n for n in notes
    )
    near = score_pair(ref, [Segment("s", 0.0, 31.0, "A", "hello there")])["notes"]
    assert not any("past the reference's last end" in n for n in near)


def test_a_cut_recordings_file_names_its_line_in_the_batch_planner(tmp_path: Path):
    from msbench.features.batches import count_batches

    ingested = tmp_path / "recordings.jsonl"
    ingested.write_text('{"recording": {"audio_path": "a.flac", "duration_seconds": 3.0}}\n{"recor')
    with pytest.raises(InputError, match=r"recordings.jsonl:line 2: not an ingested recording"):
        count_batches(ingested, {"batch_hours": 2.0})


@pytest.mark.slow
def test_a_results_path_that_is_a_file_is_one_line(tmp_path: Path):
    for name in ("Snakefile", "workflow", "config", "resources"):
        source = REPO / name
        (tmp_path / name).symlink_to(source, target_is_directory=source.is_dir())
    (tmp_path / "results").write_text("not a folder")
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--configfile", "resources/demo/config.yaml",
         "--replace-workflow-config"],
        cwd=tmp_path, capture_output=True, text=True, check=False,
    )  # fmt: skip
    said = done.stdout + done.stderr
    assert done.returncode != 0
    assert "results is a file, and the workflow writes its results into a folder" in said
    assert "Traceback" not in said and len(said.splitlines()) <= 6
