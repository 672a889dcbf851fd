"""What a failed workflow run tells the terminal: each failing step's own last lines.

The rules send a stage's messages to its log (``results/logs/...``), where the
terminal never shows them, locally or on SLURM. The Snakefile's ``onerror``
handler calls :func:`failure_report`: every log written during this run that
holds a failure (an ``msbench ... error:`` or ``infeasible:`` line, or a
traceback) is named, with its last lines.
"""

from __future__ import annotations

from pathlib import Path

FAILURE_MARKS = (": error:", ": infeasible:", "Traceback (most recent call last)")
TAIL_LINES = 12


def failed_logs(log_dir: str | Path, since: float) -> list[Path]:
    """Logs under ``log_dir`` modified at or after ``since`` (epoch s) that hold a failure."""
    found = []
    for path in sorted(Path(log_dir).rglob("*.log")):
        if path.stat().st_mtime + 1 < since:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if any(mark in text for mark in FAILURE_MARKS):
            found.append(path)
    return found


def failure_report(log_dir: str | Path, since: float) -> str:
    """The last lines of every failing step's log, each under its path; '' when none."""
    parts = []
    for path in failed_logs(log_dir, since):
        lines = path.read_text(encoding="utf-8", errors="replace").rstrip().splitlines()
        tail = "\n".join(f"  {line}" for line in lines[-TAIL_LINES:])
        parts.append(f"[msbench] {path} (last lines):\n{tail}")
    return "\n".join(parts)


#: What SLURM writes into a job's log when it kills the job for memory: the accounting
#: sampler (``JobAcctGatherParams=OverMemoryKill``) and the cgroup OOM killer.
MEMORY_KILL_MARKS = (
    "exceeded memory limit",
    "Exceeded job memory limit",
    "oom_kill event",
    "OOM Killed",
    "OUT_OF_MEMORY",
)
CANCEL_MARK = "CANCELLED AT"
TIME_MARK = "DUE TO TIME LIMIT"


def cluster_events(slurm_log_dir: str | Path, since: float) -> list[str]:
    """Jobs of this run that SLURM killed (memory, time limit) or that were cancelled, one line
    each: the rule and wildcards (the log's folder), the SLURM job id, and what SLURM said.

    The executor plugin reports a memory kill as ``FAILED`` with reason ``Unknown`` (and a
    retry may then pass): the job's SLURM log is where SLURM names it, so it is read here.
    """
    import re

    events = []
    for path in sorted(Path(slurm_log_dir).rglob("*.log")):
        if path.stat().st_mtime + 1 < since:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        job = f"{path.parent.relative_to(slurm_log_dir)} (SLURM job {path.stem})"
        if any(mark in text for mark in MEMORY_KILL_MARKS):
            used = re.search(r"exceeded memory limit \((\d+) > (\d+)\)", text)
            amounts = (
                f": used {int(used[1]) >> 20} MB of the {int(used[2]) >> 20} MB it asked for"
                if used
                else ""
            )
            events.append(f"{job}: killed by SLURM for memory{amounts} ({path})")
        elif TIME_MARK in text:
            events.append(f"{job}: killed by SLURM at its time limit ({path})")
        elif CANCEL_MARK in text:
            events.append(f"{job}: cancelled (scancel, preemption or an administrator) ({path})")
    return events


def cluster_report(slurm_log_dir: str | Path, since: float) -> str:
    """:func:`cluster_events` as a paragraph for the terminal; '' when there were none."""
    events = cluster_events(slurm_log_dir, since) if Path(slurm_log_dir).is_dir() else []
    if not events:
        return ""
    lines = "\n".join(f"  {event}" for event in events)
    return (
        f"[msbench] SLURM stopped {len(events)} job(s) of this run (each retried with more "
        f"memory and time, up to the profile's retries):\n{lines}\n"
    )
