"""Each failed SLURM job's cause on the terminal the moment SLURM reports it.

The executor plugin reports a failed job as ``SLURM-job '<id>' failed, SLURM status is:
'FAILED'. Reason: ...`` (``Unknown`` for a memory kill), and msbench's end-of-run summary
(:func:`msbench.cluster.causes.cluster_report`) names the cause only when the whole run ends, hours
later on a rebuild. :class:`CauseOnTheTerminal` is a logging handler the Snakefile attaches to
Snakemake's logger on a cluster run: on each job error that names a SLURM job it reads the
job's SLURM log (the error's own log list holds its path) and prints one line at once, e.g.
``msbench: acoustic (two_speaker, 0-of-1), SLURM job 41: killed by SLURM for memory: used 692
MB of the 600 MB it asked for; its retry asks for more memory``.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from msbench.cluster.causes import cause_of

FAILED = re.compile(r"SLURM-job '(\d+)' failed, SLURM status is: '([A-Z_]+)'")
#: What the retry does after each cause (msbench.cluster.retries).
NEXT = {
    "memory": "its retry asks for more memory",
    "time": "its retry asks for twice the time",
    "node": "its retry asks for the same",
    "cancelled": "its retry asks for the same",
}


def cause_line(rule: str, job: str, status: str, logs: Iterable[str]) -> str:
    """The line for one failed SLURM job: its cause from its SLURM log (found among ``logs``),
    else SLURM's status and the step's own log."""
    paths = [Path(p) for p in logs]
    slurm_log = next((p for p in paths if p.name == f"{job}.log" and p.exists()), None)
    step_logs = [str(p) for p in paths if p != slurm_log]
    cause = cause_of(slurm_log.read_text(encoding="utf-8", errors="replace")) if slurm_log else None
    label = f"{rule} ({slurm_log.parent.name})" if slurm_log and slurm_log.parent.name else rule
    if cause is None or cause.kind == "other":
        where = f": see {', '.join(step_logs)}" if step_logs else ""
        return f"msbench: {label}, SLURM job {job}: ended {status}{where}"
    return f"msbench: {label}, SLURM job {job}: {cause.said}; {NEXT[cause.kind]}"


class CauseOnTheTerminal(logging.Handler):
    """Prints :func:`cause_line` for every job error record that names a failed SLURM job."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__(level=logging.ERROR)
        self.stream = stream

    def emit(self, record: logging.LogRecord) -> None:
        found = FAILED.search(str(getattr(record, "rule_msg", "") or ""))
        if found is None:
            return
        rule = str(getattr(record, "rule_name", "a job"))
        logs = getattr(record, "log", None) or []
        try:
            line = cause_line(rule, found[1], found[2], [str(p) for p in logs])
        except OSError:
            return
        print(line, file=self.stream or sys.stderr, flush=True)


def attach() -> CauseOnTheTerminal:
    """Attach the handler to Snakemake's logger (once)."""
    logger = logging.getLogger("snakemake.logging")
    for handler in logger.handlers:
        if isinstance(handler, CauseOnTheTerminal):
            return handler
    handler = CauseOnTheTerminal()
    logger.addHandler(handler)
    return handler
