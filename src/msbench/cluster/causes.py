"""Why SLURM ended a job, read from the job's own log (``.snakemake/slurm_logs/rule_<rule>/
<wildcards>/<jobid>.log``), where SLURM writes it: the executor plugin reports a memory kill
as ``FAILED`` with reason ``Unknown``.

``memory``     killed for memory: the accounting sampler (``JobAcctGatherParams=
               OverMemoryKill``) or the cgroup OOM killer; the log often says how much was used
               of how much was asked;
``time``       killed at its time limit (``DUE TO TIME LIMIT``);
``cancelled``  ``scancel``, a preemption or an administrator (``CANCELLED AT``);
``node``       its node failed (``DUE TO NODE FAILURE``);
``other``      anything else (the step's own error: its log under ``results/logs`` says why).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

#: What SLURM writes into a job's log when it kills the job for memory.
MEMORY_KILL_MARKS = (
    "exceeded memory limit",
    "Exceeded job memory limit",
    "oom_kill event",
    "OOM Killed",
    "OUT_OF_MEMORY",
)
CANCEL_MARK = "CANCELLED AT"
TIME_MARK = "DUE TO TIME LIMIT"
NODE_MARK = "DUE TO NODE FAILURE"
USED = re.compile(r"exceeded memory limit \((\d+) > (\d+)\)")


@dataclass(frozen=True)
class Cause:
    """Why one SLURM job ended: ``kind`` (module docstring) and a phrase for the terminal."""

    kind: str
    said: str


def cause_of(text: str) -> Cause:
    """The cause a SLURM job log states.

    >>> cause_of("slurmstepd: error: Job 7 exceeded memory limit (725614592 > 629145600), being killed")
    Cause(kind='memory', said='killed by SLURM for memory: used 692 MB of the 600 MB it asked for')
    >>> cause_of("slurmstepd: error: *** JOB 9 ON n1 CANCELLED AT 2026-12-06T10:00:00 DUE TO TIME LIMIT ***").kind
    'time'
    """
    if any(mark in text for mark in MEMORY_KILL_MARKS):
        used = USED.search(text)
        amounts = (
            f": used {int(used[1]) >> 20} MB of the {int(used[2]) >> 20} MB it asked for"
            if used
            else ""
        )
        return Cause("memory", f"killed by SLURM for memory{amounts}")
    if TIME_MARK in text:
        return Cause("time", "killed by SLURM at its time limit")
    if NODE_MARK in text:
        return Cause("node", "its node failed")
    if CANCEL_MARK in text:
        return Cause("cancelled", "cancelled (scancel, preemption or an administrator)")
    return Cause("other", "failed (its step's log under results/logs says why)")


def job_logs(slurm_log_dir: str | Path, since: float) -> list[Path]:
    """This run's SLURM job logs (modified at or after ``since``), oldest first."""
    root = Path(slurm_log_dir)
    if not root.is_dir():
        return []
    logs = [p for p in root.rglob("*.log") if p.stat().st_mtime + 1 >= since]
    return sorted(logs, key=lambda p: (p.stat().st_mtime, p.name))


def job_folder(wildcards: Iterable[str]) -> str:
    """The executor plugin's folder of a job's SLURM logs under ``rule_<rule>``: the wildcard
    values joined by ``_``, slashes made ``_`` (plugin 2.8, ``get_job_wildcards``).

    >>> job_folder(["ami", "0-of-1"]), job_folder([])
    ('ami_0-of-1', '')
    """
    return "_".join(str(w) for w in wildcards).replace("/", "_")


def causes_of_job(
    slurm_log_dir: str | Path, rule: str, wildcards: Iterable[str] | str, since: float
) -> list[Cause]:
    """The causes of this run's ended attempts of one job (its rule and wildcard values, or
    its log folder's name), oldest first; trailing attempts that state no cause (the one now
    running, or a step's own failure) are left out: nothing to grow."""
    folder_name = wildcards if isinstance(wildcards, str) else job_folder(wildcards)
    folder = Path(slurm_log_dir) / f"rule_{rule}" / folder_name
    found = []
    for path in job_logs(folder, since):
        cause = cause_of(path.read_text(encoding="utf-8", errors="replace"))
        found.append(cause)
    while found and found[-1].kind == "other":
        found.pop()  # an attempt still running, or a plain step failure: no resource to grow
    return found


def cluster_events(slurm_log_dir: str | Path, since: float) -> list[str]:
    """Jobs of this run that SLURM killed (memory, time limit, node failure) or that were
    cancelled, one line each: the rule and wildcards (the log's folder), the SLURM job id, and
    what SLURM said (:mod:`msbench.cluster.causes`)."""
    events = []
    for path in job_logs(slurm_log_dir, since):
        cause = cause_of(path.read_text(encoding="utf-8", errors="replace"))
        if cause.kind != "other":
            job = f"{path.parent.relative_to(slurm_log_dir)} (SLURM job {path.stem})"
            events.append(f"{job}: {cause.said} ({path})")
    return events


def cluster_report(slurm_log_dir: str | Path, since: float) -> str:
    """:func:`cluster_events` as a paragraph for the terminal; '' when there were none."""
    events = cluster_events(slurm_log_dir, since) if Path(slurm_log_dir).is_dir() else []
    if not events:
        return ""
    lines = "\n".join(f"  {event}" for event in events)
    return (
        f"[msbench] SLURM stopped {len(events)} job(s) of this run (each retried, up to the "
        "profile's retries: a time-limit kill with twice the time, a memory kill with the larger "
        f"of twice the memory and the predicted peak, anything else as it was):\n{lines}\n"
    )
