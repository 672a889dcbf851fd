"""A run killed with SIGKILL mid-way resumes with the demo command: stale lock, incomplete jobs."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers.workflow import DEMO_CONFIG, copy_workflow, manifest_bytes, snakemake

pytestmark = pytest.mark.slow


#: Up to the benchmark and the recordings table: the model step and everything it feeds (the
#: loop after it is the same Snakemake machinery, run by the other workflow tests).
TARGETS = ("results/manifests/benchmark.csv", "results/manifests/recordings.csv")


def test_a_run_killed_during_the_model_step_resumes(tmp_path: Path, clean_run: Path):
    """Killed during the model step, unlocked as run_demo.sh does, resumed: the manifests are
    byte-identical to the clean demo run's."""
    work = copy_workflow(tmp_path / "killed")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    demo = ("--configfile", DEMO_CONFIG, "--replace-workflow-config")
    run = subprocess.Popen(
        [sys.executable, "-m", "snakemake", "--cores", "2", *TARGETS, *demo],
        cwd=work,
        env=env,
        start_new_session=True,  # its own process group: the kill takes every job with it
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    logs, deadline = work / "results/logs/acoustic", time.time() + 600
    while run.poll() is None and time.time() < deadline and not list(logs.rglob("*.log")):
        time.sleep(0.5)
    time.sleep(2.0)  # well inside the model step (about 30 s of CPU per batch)
    assert run.poll() is None, "the run ended before it could be killed"
    os.killpg(run.pid, signal.SIGKILL)
    run.wait()
    assert list((work / ".snakemake/locks").iterdir()), "a killed run leaves its lock"
    blocked = snakemake(work, "--cores", "2", "--rerun-incomplete", check=False)
    assert blocked.returncode != 0 and "cannot be locked" in blocked.stdout + blocked.stderr
    # what scripts/run_demo.sh does before running: unlock only when no Snakemake is live here
    unlock = subprocess.run(
        ["bash", str(work / "scripts/unlock_if_stale.sh"), *demo],
        cwd=work, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert unlock.returncode == 0 and "stale lock" in unlock.stderr
    snakemake(work, "--cores", "2", "--rerun-incomplete", *TARGETS)
    summary = json.loads((work / "results/manifests/run_summary.json").read_text())
    assert summary["recordings_in"] == summary["recordings_characterized"] == 16
    made = manifest_bytes(work)
    assert "benchmark.csv" in made and "recordings.csv" in made
    whole = manifest_bytes(clean_run)
    assert {name: whole[name] for name in made} == made
