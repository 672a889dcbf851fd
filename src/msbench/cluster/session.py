"""What the Snakefile sets up for a run that goes to SLURM, and what it says at the end.

:func:`prepare` writes msbench's ``sbatch`` (:mod:`msbench.cluster.submit`) into
``.snakemake/msbench/bin`` and puts it first on the ``PATH`` the executor plugin calls
``sbatch`` through, with the run's window, submission log and terminal in the environment, and
attaches :mod:`msbench.cluster.live` to Snakemake's logger. :func:`refused_report` is the end
of a run that a refusal outlasted: the jobs, and the command that resumes.
"""

from __future__ import annotations

import os
import shlex
import sys
import time
from pathlib import Path

from msbench.cluster.live import attach
from msbench.cluster.submit import Outage

STATE_DIR = Path(".snakemake") / "msbench"


def prepare(window_min: float, python: str | None = None) -> Path:
    """Set up this process (the Snakemake controller) for a SLURM run; the run's submission
    log's path. ``python``: the interpreter the sbatch shim runs (default: this one)."""
    python = python or sys.executable
    shim_dir = (STATE_DIR / "bin").resolve()
    shim_dir.mkdir(parents=True, exist_ok=True)
    shim = shim_dir / "sbatch"
    text = f'#!/bin/sh\nexec {shlex.quote(python)} -m msbench.cluster.submit "$@"\n'
    if not shim.exists() or shim.read_text() != text:
        partial = shim.with_suffix(".partial")
        partial.write_text(text)
        partial.chmod(0o755)
        partial.replace(shim)
    state = (STATE_DIR / f"submissions-{int(time.time())}-{os.getpid()}.jsonl").resolve()
    os.environ["PATH"] = f"{shim_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    os.environ["MSBENCH_SHIM_DIR"] = str(shim_dir)
    os.environ["MSBENCH_SUBMIT_STATE"] = str(state)
    os.environ["MSBENCH_SUBMIT_WINDOW_MIN"] = f"{window_min:g}"
    terminal = Path(f"/proc/{os.getpid()}/fd/2")
    if terminal.exists():
        os.environ["MSBENCH_TERMINAL"] = str(terminal)
    attach()
    return state


def refused_report(state: str | Path | None, argv: list[str]) -> str:
    """The jobs SLURM refused for the whole window in this run, and the command that resumes;
    '' when none."""
    if not state:
        return ""
    gave_up = sorted(
        {str(row["job"]) for row in Outage(str(state)).events() if row.get("event") == "gave-up"}
    )
    if not gave_up:
        return ""
    command = " ".join(shlex.quote(a) for a in ["snakemake", *argv[1:]])
    listed = "\n".join(f"  {job}" for job in gave_up)
    return (
        f"[msbench] SLURM refused {len(gave_up)} job(s) for longer than the submission window "
        f"(slurm_submit_window_min); nothing of theirs ran, and every finished step is kept:\n"
        f"{listed}\n[msbench] when the cluster accepts jobs again, resume with: {command}\n"
    )


def stale_lock_hint(argv: list[str]) -> str:
    """A line for a run that meets a lock left by an earlier run ('' when there is none)."""
    locks = Path(".snakemake") / "locks"
    if "--unlock" in argv or not locks.is_dir() or not any(locks.iterdir()):
        return ""
    return (
        "msbench: .snakemake/locks holds an earlier run's lock. If that run is gone (a killed "
        "controller or login session), first run scripts/slurm_leftovers.sh (it lists the SLURM "
        "jobs it left running; --cancel cancels them, so the rerun does not submit the same "
        "steps twice), then snakemake --unlock, then your command again."
    )
