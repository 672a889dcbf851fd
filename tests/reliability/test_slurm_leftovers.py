"""scripts/slurm_leftovers.sh gives no false all-clear (issue 48): when the cluster cannot be
asked, it says so and exits non-zero, within its timeout; when squeue answers, it lists only
this folder's jobs."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from tests.helpers.paths import REPO

SCRIPT = REPO / "scripts" / "slurm_leftovers.sh"


def _run(
    tmp_path: Path, squeue: str | None, *args: str, **env: str
) -> subprocess.CompletedProcess[str]:
    """The script with PATH holding only the basic tools and, if given, a fake squeue."""
    tools = tmp_path / "bin"
    tools.mkdir(exist_ok=True)
    for name in ("awk", "cut", "head", "id", "timeout", "dirname", "sleep", "xargs", "cat", "tr"):
        found = subprocess.run(["bash", "-c", f"command -v {name}"], capture_output=True, text=True)
        (tools / name).symlink_to(found.stdout.strip())
    if squeue is not None:
        (tools / "squeue").write_text("#!/bin/bash\n" + squeue + "\n")
        (tools / "squeue").chmod(0o755)
    environment = {"PATH": str(tools), "HOME": os.environ.get("HOME", "/root"), **env}
    return subprocess.run(
        ["/bin/bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env=environment,
        timeout=60,
    )


def test_no_squeue_is_an_error_not_an_all_clear(tmp_path: Path):
    result = _run(tmp_path, None)
    assert result.returncode == 2
    assert "could not ask the cluster" in result.stderr and "squeue is not on PATH" in result.stderr
    assert "no job" not in result.stdout


def test_an_unreachable_controller_is_an_error(tmp_path: Path):
    failing = 'echo "slurm_load_jobs error: Unable to contact slurm controller" >&2; exit 1'
    result = _run(tmp_path, failing)
    assert result.returncode == 2
    assert "squeue failed with exit status 1: slurm_load_jobs error" in result.stderr


def test_a_hanging_squeue_is_cut_at_the_timeout(tmp_path: Path):
    started = time.monotonic()
    result = _run(tmp_path, "sleep 30", MSBENCH_SQUEUE_TIMEOUT="2")
    assert result.returncode == 2 and "no answer within 2 s" in result.stderr
    assert time.monotonic() - started < 15


@pytest.mark.parametrize(
    "listed, jobs", [("", 0), ("1|{here}|RUNNING|acoustic\n2|/elsewhere|PENDING|x", 1)]
)
def test_an_answering_squeue_lists_this_folders_jobs(tmp_path: Path, listed: str, jobs: int):
    here = REPO.resolve()
    lines = listed.format(here=here)
    result = _run(tmp_path, f"printf '%s\\n' {lines!r}" if lines else "true")
    assert result.returncode == 0, result.stderr
    if jobs:
        assert (
            "job 1" in result.stdout
            and "job 2" not in result.stdout
            and "1 job(s)" in result.stdout
        )
    else:
        assert "no job of" in result.stdout


def test_cancel_without_scancel_says_nothing_was_cancelled(tmp_path: Path):
    """Issue 59: --cancel where scancel is not on PATH names the jobs still running and exits 3,
    never xargs' own message."""
    here = REPO.resolve()
    result = _run(tmp_path, f'echo "7|{here}|RUNNING|acoustic"', "--cancel")
    assert result.returncode == 3, result.stderr
    assert "NOT cancelled: scancel is not on PATH" in result.stderr and "scancel 7" in result.stderr
    assert "cancelled 1 job" not in result.stdout
