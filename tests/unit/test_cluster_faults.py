"""The cluster's faults, piece by piece (msbench.cluster): refused submissions wait, retries grow
what ran out, causes are named at once, a source that gives no recording is named.

The real cluster runs are in tests/workflow/test_slurm_cluster.py; here ``sbatch`` is a script
that answers as SLURM does (its messages copied from Slurm 22.05), so every branch runs in
milliseconds and each planted fault is seen to fail.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from msbench.cluster import submit
from msbench.cluster.causes import Cause, cause_of, causes_of_job
from msbench.cluster.live import CauseOnTheTerminal
from msbench.cluster.retries import retried, user_requests
from msbench.cluster.session import refused_report, stale_lock_hint

DRAINED = "sbatch: error: Batch job submission failed: Required partition not available (inactive or drain)"
BAD_ACCOUNT = "sbatch: error: Batch job submission failed: Invalid account or account/partition combination specified"


def fake_sbatch(folder: Path, refusals: int, message: str = DRAINED) -> Path:
    """An ``sbatch`` that refuses ``refusals`` times (counted in a file), then accepts: it
    prints a job id and keeps the script it was given on standard input."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "sbatch"
    script.write_text(
        "#!/bin/sh\n"
        f'count=$(cat "{folder}/calls" 2>/dev/null || echo 0); count=$((count + 1)); '
        f'echo $count > "{folder}/calls"\n'
        f'if [ $count -le {refusals} ]; then echo "{message}" >&2; exit 1; fi\n'
        f'cat > "{folder}/script.sh"; echo "4242"\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return folder


@pytest.fixture()
def cluster(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """msbench's sbatch in front of a fake one, the run's terminal and log in ``tmp_path``."""
    shim = tmp_path / "shim"
    shim.mkdir()
    (shim / "sbatch").write_text("#!/bin/sh\nexit 99\n")  # never called: it is skipped
    (shim / "sbatch").chmod(0o755)
    monkeypatch.setenv("MSBENCH_SHIM_DIR", str(shim))
    monkeypatch.setenv("MSBENCH_TERMINAL", str(tmp_path / "terminal.txt"))
    monkeypatch.setattr(submit, "DELAYS", (0.01,))
    return tmp_path


def _use(fake: Path, cluster: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(
        "PATH", f"{cluster / 'shim'}{os.pathsep}{fake}{os.pathsep}{os.environ['PATH']}"
    )


ARGS = ["--parsable", "--comment", "rule_acoustic_wildcards_ami_0-of-1", "/dev/stdin"]


def test_a_refused_submission_waits_and_then_goes_through_unchanged(cluster, monkeypatch):
    _use(fake_sbatch(cluster / "real", refusals=3), cluster, monkeypatch)
    outage = submit.Outage(str(cluster / "submissions.jsonl"))
    done = submit.submit(ARGS, b"#!/bin/sh\nmsbench acoustic\n", 60.0, outage)
    assert done.returncode == 0 and done.stdout.strip() == b"4242"
    assert (cluster / "real" / "script.sh").read_bytes() == b"#!/bin/sh\nmsbench acoustic\n"
    assert (cluster / "real" / "calls").read_text().strip() == "4"
    said = (cluster / "terminal.txt").read_text().splitlines()
    assert said[0].startswith(
        "msbench: acoustic (ami_0-of-1) refused by SLURM (partition drained or down); retrying in"
    )
    assert said[-1] == "msbench: acoustic (ami_0-of-1) submitted to SLURM after 3 refusal(s)"
    assert len(said) == 2  # one line per change of state, not one per try
    events = [row["event"] for row in outage.events()]
    assert events == ["refused"] * 3 + ["submitted"]
    assert outage.began() is None  # the outage is over


def test_past_the_window_the_refusal_passes_through_and_the_run_says_how_to_resume(
    cluster, monkeypatch
):
    _use(fake_sbatch(cluster / "real", refusals=1000), cluster, monkeypatch)
    outage = submit.Outage(str(cluster / "submissions.jsonl"))
    done = submit.submit(ARGS, b"", 0.05, outage)
    assert done.returncode == 1 and b"inactive or drain" in done.stderr
    calls = int((cluster / "real" / "calls").read_text())
    second = submit.submit(["--comment", "rule_units_wildcards_"], b"", 0.05, outage)
    assert second.returncode == 1
    assert int((cluster / "real" / "calls").read_text()) == calls + 1  # the window is the run's
    report = refused_report(cluster / "submissions.jsonl", ["snakemake", "--profile", "slurm"])
    assert "SLURM refused 2 job(s)" in report and "acoustic (ami_0-of-1)" in report
    assert "resume with: snakemake --profile slurm" in report


def test_any_other_sbatch_error_is_said_at_once(cluster, monkeypatch):
    _use(fake_sbatch(cluster / "real", refusals=1000, message=BAD_ACCOUNT), cluster, monkeypatch)
    done = submit.submit(ARGS, b"", 60.0, submit.Outage(None))
    assert done.returncode == 1 and b"Invalid account" in done.stderr
    assert (cluster / "real" / "calls").read_text().strip() == "1"


def test_the_refusal_patterns_planted_away_let_a_drain_fail_the_job(cluster, monkeypatch):
    """Planted fault: no refusal recognised; the drained partition then fails the job at once."""
    monkeypatch.setattr(submit, "REFUSALS", ())
    _use(fake_sbatch(cluster / "real", refusals=3), cluster, monkeypatch)
    done = submit.submit(ARGS, b"", 60.0, submit.Outage(None))
    assert done.returncode == 1


def test_retries_grow_only_what_ran_out():
    first = {"mem_mb": 600, "runtime": 2}
    assert retried(first, 1500, [Cause("time", "")]) == {"mem_mb": 600, "runtime": 4}
    assert retried(first, 1500, [Cause("memory", "")]) == {"mem_mb": 1500, "runtime": 2}
    assert retried(first, 1000, [Cause("memory", ""), Cause("memory", "")]) == {
        "mem_mb": 2400,
        "runtime": 2,
    }
    for kept in ("node", "cancelled", "other"):
        assert retried(first, 1500, [Cause(kept, "")]) == first


def test_causes_are_read_from_each_attempts_slurm_log(tmp_path: Path):
    folder = tmp_path / "rule_acoustic" / "ami_0-of-1"
    folder.mkdir(parents=True)
    (folder / "11.log").write_text(
        "slurmstepd: error: Job 11 exceeded memory limit (725614592 > 629145600), being killed\n"
    )
    (folder / "12.log").write_text(
        "slurmstepd: error: *** JOB 12 ON node CANCELLED AT 2026-12-06T10:00:00 DUE TO TIME LIMIT ***\n"
    )
    os.utime(folder / "11.log", (1000, 1000))
    os.utime(folder / "12.log", (2000, 2000))
    causes = causes_of_job(tmp_path, "acoustic", "ami_0-of-1", since=0)
    assert [c.kind for c in causes] == ["memory", "time"]
    assert causes[0].said == "killed by SLURM for memory: used 692 MB of the 600 MB it asked for"
    assert causes_of_job(tmp_path, "acoustic", "ami_0-of-1", since=5000) == []
    assert (
        cause_of("slurmstepd: error: *** JOB 3 ON n1 CANCELLED AT X DUE TO NODE FAILURE ***").kind
        == "node"
    )


def test_a_users_fixed_request_is_taken_over_to_grow():
    from types import SimpleNamespace

    from snakemake.resources import Resources

    parsed = {"acoustic": Resources.from_mapping({"runtime": 2, "mem": "1G", "slurm_extra": "x"})}
    workflow = SimpleNamespace(
        resource_settings=SimpleNamespace(_parsed_overwrite_resources=parsed)
    )
    assert user_requests(workflow, ("acoustic", "units")) == {
        "acoustic": {"runtime": 2, "mem_mb": 1000}
    }
    assert set(parsed["acoustic"]._data) == {"slurm_extra"}  # the rest stays Snakemake's


def test_a_failed_jobs_cause_is_printed_when_the_error_is_logged(tmp_path: Path, capsys):
    log = tmp_path / ".snakemake/slurm_logs/rule_acoustic/two_speaker_0-of-1/41.log"
    log.parent.mkdir(parents=True)
    log.write_text("slurmstepd: error: Job 41 exceeded memory limit (725614592 > 629145600)\n")
    logger = logging.getLogger("test.cluster.live")
    handler = CauseOnTheTerminal()
    logger.addHandler(handler)
    try:
        logger.error(
            "Error in rule acoustic, jobid: 7",
            extra={
                "rule_name": "acoustic",
                "rule_msg": "SLURM-job '41' failed, SLURM status is: 'FAILED'. Reason: Unknown.",
                "log": ["results/logs/acoustic/two_speaker/0-of-1.log", str(log)],
            },
        )
        logger.error(
            "Error in rule units, jobid: 8", extra={"rule_name": "units", "rule_msg": "boom"}
        )
    finally:
        logger.removeHandler(handler)
    said = capsys.readouterr().err.splitlines()
    assert said == [
        "msbench: acoustic (two_speaker_0-of-1), SLURM job 41: killed by SLURM for memory: used "
        "692 MB of the 600 MB it asked for; its retry asks for more memory"
    ]


def test_a_source_that_gives_no_recording_is_named(tmp_path: Path):
    from msbench.features.collect import failed_sources
    from msbench.records import Rejection

    rejections = [
        Rejection("extra::m1", "extra", "corpora/extra/m1.rttm.gz", "cut short", "ingest"),
        Rejection("gone::*", "gone", "corpora/gone", "no annotation file", "ingest"),
    ]
    recordings = [{"source_dataset": "ami", "recording_id": "ami::a"}]
    assert failed_sources(recordings, rejections, ["ami", "extra", "gone"]) == {
        "extra": "gave no recording: 1 rejected, see results/manifests/rejected.csv",
        "gone": "no annotation file",
    }


def test_a_stale_lock_points_to_the_leftovers_script(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert stale_lock_hint(["snakemake"]) == ""
    (tmp_path / ".snakemake/locks").mkdir(parents=True)
    (tmp_path / ".snakemake/locks/0.input.lock").write_text("x")
    assert "scripts/slurm_leftovers.sh" in stale_lock_hint(["snakemake", "--profile", "slurm"])
    assert stale_lock_hint(["snakemake", "--unlock"]) == ""
