"""``sbatch`` that waits through refused submissions: a maintenance window is not a failed job.

The SLURM executor plugin (2.8) calls ``sbatch`` once per job and reports a refused submission
as the job's failure: Snakemake then counts an attempt, asks the retry for more memory and
time, and after ``retries`` refusals ends the run, though nothing ran. When a run goes to
SLURM, the workflow puts this program first on the ``PATH`` it calls ``sbatch`` through
(``.snakemake/msbench/bin/sbatch``, written by the Snakefile), so that a refusal the cluster
will lift by itself is waited out instead:

* the real ``sbatch`` runs with the same arguments and standard input; its answer passes
  through unchanged when it succeeds or fails for another reason (a wrong account, a bad
  option: said at once);
* a **refusal** (:data:`REFUSALS`: a drained or inactive partition, a controller that does not
  answer, a submit limit of the QOS or association) is retried after 10 s, then 20, 40 and
  every 60 s, for as long as the run's **window** (``slurm_submit_window_min`` in the config,
  default 30 minutes) lasts, counted from the first refusal of the current outage (a
  submission that succeeds ends the outage). No attempt is counted and no resource raised:
  the job's request is the one it had;
* one line per job and change of state goes to the terminal of the Snakemake run
  (``MSBENCH_TERMINAL``), e.g. ``msbench: acoustic (two_speaker_0) refused by SLURM
  (partition drained); retrying in 20 s, 29 min left``, and one JSON line per event to the
  run's submission log (``MSBENCH_SUBMIT_STATE``), which the end-of-run summary reads;
* past the window the refusal passes through: the job fails, the run stops, and its summary
  names the refused jobs and the command that resumes.

Run as ``python -m msbench.cluster.submit <sbatch arguments>``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

#: (pattern of sbatch's error, what the line says): refusals the cluster lifts by itself.
REFUSALS = (
    (r"partition not available|inactive or drain|PartitionDown|PartitionInactive", "partition drained or down"),
    (r"Socket timed out|Unable to contact slurm controller|Connection refused|controller not responding|Zero Bytes were transmitted", "the controller does not answer"),
    (r"temporarily unable to accept job|Resource temporarily unavailable|Transport endpoint", "the controller is busy"),
    (r"MaxSubmitJob|job submit limit|AssocMaxSubmitJobLimit|QOSMaxSubmitJob", "a submit limit of the QOS or account"),
    (r"[Rr]eservation.*(not|in) (available|use|maintenance)|maintenance", "a maintenance reservation"),
)  # fmt: skip
#: Seconds between tries: 10, 20, 40, then 60 (and never past the window).
DELAYS = (10, 20, 40, 60)
DEFAULT_WINDOW_MIN = 30.0


def refusal(stderr: str) -> str | None:
    """What a refused submission's message means, or None when it is not a refusal.

    >>> refusal("sbatch: error: Batch job submission failed: Required partition not available (inactive or drain)")
    'partition drained or down'
    >>> refusal("sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified") is None
    True
    """
    for pattern, said in REFUSALS:
        if re.search(pattern, stderr):
            return said
    return None


def job_name(argv: Sequence[str]) -> str:
    """The job as the run names it: the plugin's ``--comment rule_<rule>_wildcards_<w>``.

    >>> job_name(["--parsable", "--comment", "rule_acoustic_wildcards_ami_0-of-1", "/dev/stdin"])
    'acoustic (ami_0-of-1)'
    """
    for k, arg in enumerate(argv):
        value = argv[k + 1] if arg == "--comment" and k + 1 < len(argv) else None
        if arg.startswith("--comment="):
            value = arg.split("=", 1)[1]
        if value:
            value = value.strip("'\"")
            rule, _, wildcards = value.removeprefix("rule_").partition("_wildcards_")
            return f"{rule} ({wildcards})" if wildcards else rule
    return "a job"


def real_sbatch() -> str:
    """The cluster's ``sbatch``: the first on PATH outside msbench's own folder
    (``MSBENCH_SHIM_DIR``)."""
    shim = os.environ.get("MSBENCH_SHIM_DIR")
    skip = str(Path(shim).resolve()) if shim else None
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not folder or (skip and str(Path(folder).resolve()) == skip):
            continue
        found = shutil.which("sbatch", path=folder)
        if found:
            return found
    raise SystemExit(
        "msbench: no sbatch on PATH besides msbench's own (is this a SLURM login node?)"
    )


class Outage:
    """The run's submission log: when the current run of refusals began (the window's start)."""

    def __init__(self, path: str | None) -> None:
        self.path = Path(path) if path else None

    def events(self) -> list[dict[str, object]]:
        if self.path is None or not self.path.exists():
            return []
        rows = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                continue  # a line cut by a concurrent write: skipped
        return rows

    def began(self) -> float | None:
        """When the current outage's first refusal happened; None when there is none."""
        began = None
        for row in self.events():
            if row.get("event") == "refused" and began is None:
                began = float(row["time"])  # type: ignore[arg-type]
            elif row.get("event") == "submitted":
                began = None
        return began

    def note(self, **row: object) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as log:
            log.write(json.dumps({"time": time.time(), **row}, sort_keys=True) + "\n")


def say(line: str) -> None:
    """One line on the run's terminal (``MSBENCH_TERMINAL``), else on this program's stderr."""
    target = os.environ.get("MSBENCH_TERMINAL")
    if target:
        try:
            with open(target, "a", encoding="utf-8") as terminal:
                terminal.write(line + "\n")
            return
        except OSError:
            pass
    print(line, file=sys.stderr, flush=True)


def submit(
    argv: Sequence[str], stdin: bytes, window_s: float, outage: Outage
) -> subprocess.CompletedProcess[bytes]:
    """Run the real sbatch until it accepts, refuses for another reason, or the window ends."""
    sbatch, name = real_sbatch(), job_name(argv)
    tries, said = 0, None
    while True:
        done = subprocess.run([sbatch, *argv], input=stdin, capture_output=True)
        reason = refusal(done.stderr.decode("utf-8", "replace")) if done.returncode else None
        if reason is None:
            if done.returncode == 0 and tries:
                outage.note(event="submitted", job=name, tries=tries + 1)
                say(f"msbench: {name} submitted to SLURM after {tries} refusal(s)")
            elif done.returncode == 0 and outage.began() is not None:
                outage.note(event="submitted", job=name, tries=1)
            return done
        now = time.time()
        began = outage.began() or now
        outage.note(event="refused", job=name, reason=reason)
        left = window_s - (now - began)
        if left <= 0:
            outage.note(event="gave-up", job=name, reason=reason)
            say(
                f"msbench: {name} refused by SLURM ({reason}) for the whole window of "
                f"{window_s / 60:g} min: not submitted; the run stops, and the same command "
                "resumes it once SLURM accepts jobs again"
            )
            return done
        delay = min(DELAYS[min(tries, len(DELAYS) - 1)], max(1.0, left))
        if reason != said:
            say(
                f"msbench: {name} refused by SLURM ({reason}); retrying in {delay:.0f} s, "
                f"{left / 60:.0f} min left (slurm_submit_window_min)"
            )
            said = reason
        time.sleep(delay)
        tries += 1


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    stdin = b"" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.buffer.read()
    window = float(os.environ.get("MSBENCH_SUBMIT_WINDOW_MIN", DEFAULT_WINDOW_MIN)) * 60
    done = submit(args, stdin, window, Outage(os.environ.get("MSBENCH_SUBMIT_STATE")))
    sys.stdout.buffer.write(done.stdout)
    sys.stderr.buffer.write(done.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
