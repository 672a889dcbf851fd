"""The lint gate (scripts/lint_workflow.sh) can fail: on a planted '+' path composition, and
when Snakemake cannot lint at all; it passes on the workflow as it is."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.helpers.paths import REPO

COPIED = ("Snakefile", "workflow", "config", "resources/demo", "scripts/lint_workflow.sh")


def lint_copy(
    tmp_path: Path, plant: str = "", config_error: bool = False
) -> subprocess.CompletedProcess:
    for name in COPIED:
        source, target = REPO / name, tmp_path / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target)
        else:
            shutil.copy2(source, target)
    if plant:
        common = tmp_path / "workflow/rules/common.smk"
        common.write_text(common.read_text() + plant)
    if config_error:
        demo = tmp_path / "resources/demo/config.yaml"
        demo.write_text(demo.read_text() + "\nunknown_top_level_key: 1\n")
    env = {**os.environ, "PATH": f"{Path(os.sys.executable).parent}:{os.environ['PATH']}"}
    return subprocess.run(["bash", "scripts/lint_workflow.sh"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=False)  # fmt: skip


@pytest.mark.slow
def test_the_gate_passes_on_the_workflow_and_fails_on_a_planted_finding(tmp_path: Path):
    clean = lint_copy(tmp_path / "clean")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    planted = lint_copy(
        tmp_path / "planted", plant='\nRESULTS = "results"\nPLANTED = RESULTS + "x/y.csv"\n'
    )
    assert planted.returncode == 1 and "Path composition with '+'" in planted.stderr
    broken = lint_copy(tmp_path / "broken", config_error=True)
    assert broken.returncode == 1 and "could not lint" in broken.stderr
