"""`snakemake --profile slurm` on a real SLURM cluster (scripts/slurm_cluster.sh up).

Runs when a cluster answers (`sinfo`), and must run when MSBENCH_SLURM=1 (CI).
The test edits only what a user edits in the profile (account and partition of
the test cluster), then types exactly `snakemake --profile slurm`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from tests.helpers.workflow import DEMO_SHEET, copy_workflow, loop_bytes, manifest_bytes, snakemake

pytestmark = [pytest.mark.slurm, pytest.mark.slow]


def cluster_available() -> bool:
    if shutil.which("sinfo") is None:
        return False
    return subprocess.run(["sinfo", "-h"], capture_output=True, timeout=30).returncode == 0


@pytest.fixture(scope="module", autouse=True)
def require_cluster():
    if not cluster_available():
        if os.environ.get("MSBENCH_SLURM") == "1":
            pytest.fail(
                "MSBENCH_SLURM=1 but no SLURM cluster answers; run scripts/slurm_cluster.sh up"
            )
        pytest.skip("no SLURM cluster (scripts/slurm_cluster.sh up starts one)")


def point_profile_at_test_cluster(work: Path) -> None:
    profile = work / "slurm" / "config.yaml"
    text = profile.read_text()
    text = text.replace('"EDIT-ME-partition"', "debug").replace('"EDIT-ME-account"', "ci")
    text = text.replace(
        "slurm-init-seconds-before-status-checks: 20", "slurm-init-seconds-before-status-checks: 2"
    )
    profile.write_text(text)


def submitted(run_log: str, rule: str = "") -> list[str]:
    """The SLURM job ids this run submitted (from Snakemake's log), of ``rule`` when given."""
    found = re.findall(r"SLURM jobid (\d+) \(log: ([^)]*)\)", run_log)
    return sorted({job for job, log in found if not rule or f"/rule_{rule}/" in log})


def sacct(ids: list[str], fields: str) -> list[list[str]]:
    """``sacct``'s rows of ``fields`` (comma-separated names) for the jobs ``ids``."""
    if not ids:
        return []
    out = subprocess.run(
        ["sacct", "-X", "-n", "-P", "-j", ",".join(ids), "-o", fields],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    return [line.split("|") for line in out.splitlines() if line]


def sacct_states(run_log: str) -> dict[str, str]:
    """SLURM job id -> state, for the jobs this run submitted."""
    return {row[0]: row[1] for row in sacct(submitted(run_log), "JobID,State,Account,Partition")}


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def local_manifests(clean_run: Path) -> dict[str, bytes]:
    """The local run's manifests, and its loop outputs (units, baseline, scores, Table 2): the
    shared clean demo run (tests/workflow/conftest.py)."""
    return {**manifest_bytes(clean_run), **loop_bytes(clean_run)}


def requests_of(run_log: str, rule: str) -> dict[str, tuple[int, int]]:
    """SLURM job id -> (requested MB, time limit in minutes) of this run's jobs of ``rule``."""
    rows = sacct(submitted(run_log, rule), "JobID,ReqMem,TimelimitRaw")
    return {job: (int(re.match(r"\d+", mem).group(0)), int(limit)) for job, mem, limit in rows}


def model_requests(work: Path) -> dict[str, tuple[int, int]]:
    """Acoustic log -> (mem_mb, runtime) by msbench's model, for every batch of every source."""
    from msbench.config import load_config
    from msbench.features.batches import acoustic_job, count_batches

    acoustic = load_config(work / "resources" / "demo" / "config.yaml")["acoustic"]
    expected = {}
    for ingested in sorted((work / "results" / "ingest").glob("*/recordings.jsonl")):
        batches = count_batches(ingested, acoustic)
        for batch in range(batches):
            job = acoustic_job(ingested, batch, acoustic)
            log = f"results/logs/acoustic/{ingested.parent.name}/{batch}-of-{batches}.log"
            expected[log] = (int(job["mem_mb"]), int(job["runtime"]))
    return expected


def test_failing_job_is_reported_and_the_rest_completes(tmp_path: Path):
    work = copy_workflow(tmp_path / "failing")
    point_profile_at_test_cluster(work)
    # a third source whose ingest job crashes (a job-level failure, not a bad recording,
    # which would only be rejected): the rule's command fails for that source alone
    broken = work / "resources" / "crash"
    broken.mkdir()
    (broken / "x.rttm").write_text("SPEAKER x 1 0.0 1.0 <NA> <NA> A <NA> <NA>\n")
    (work / "workflow" / "rules" / "ingest.smk").write_text(
        (work / "workflow" / "rules" / "ingest.smk")
        .read_text()
        .replace('"msbench ingest', '"test {wildcards.source} != crash && msbench ingest')
    )
    with (work / DEMO_SHEET).open("a") as sheet:
        sheet.write(
            "crash\trttm\tresources/crash/*.rttm\tresources/crash/{session}.flac\t\t\tEnglish\tMeeting\tnone\t0\n"
        )
    result = snakemake(work, "--profile", "slurm", "--retries", "0", check=False)
    log = result.stdout + result.stderr
    assert result.returncode != 0
    assert "Error in rule ingest" in log and "crash" in log
    states = sacct_states(log)
    assert "FAILED" in states.values() and "COMPLETED" in states.values()
    # the independent work went through: the other sources' features exist
    assert (work / "results" / "features" / "ami" / "interaction.jsonl").exists()
    assert (work / "results" / "features" / "two_speaker" / "interaction.jsonl").exists()
    # one source's failed ingest holds back no other source's model jobs (issue 38)
    assert (work / "results" / "features" / "ami" / "acoustic.jsonl").exists()
    assert (work / "results" / "features" / "two_speaker" / "acoustic.jsonl").exists()


def drain_once_running(work: Path, seconds: float, done: threading.Event) -> None:
    """When a job of ``work`` first runs, drain the partition for ``seconds``, then resume it
    (what a maintenance reservation or a restarted controller looks like to sbatch)."""
    import time

    deadline = time.monotonic() + 900
    while not done.is_set() and time.monotonic() < deadline:
        rows = subprocess.run(["squeue", "-h", "-o", "%Z|%T"], capture_output=True, text=True,
                              timeout=30).stdout.splitlines()  # fmt: skip
        if any(row == f"{work}|RUNNING" for row in rows):
            break
        time.sleep(1)
    subprocess.run(["scontrol", "update", "PartitionName=debug", "State=DRAIN"], check=True)
    try:
        done.wait(seconds)
    finally:
        subprocess.run(["scontrol", "update", "PartitionName=debug", "State=UP"], check=True)


def units_bytes(workdir: Path) -> dict[str, bytes]:
    """The inference units: units.csv and every unit's FLAC."""
    folder = workdir / "results" / "units"
    return {str(p.relative_to(workdir)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith(".")}  # fmt: skip


#: The faults run goes as far as the units (the rule its time-out fault needs): the loop after
#: them is the cancel test's, so each run is paid once (issue 54).
UNITS_TARGETS = ("results/units/units.csv", "results/manifests/recordings.csv")


def test_a_drain_a_memory_kill_and_a_time_out_in_one_run(tmp_path: Path, clean_run: Path):
    """One run meets three faults and ends with the local run's manifests and units (issues 38,
    58):

    * the partition is drained for 60 s once a job runs (``MSBENCH_DRAIN_S=300``: the
      maintenance window of docs/cluster.md): submissions SLURM refuses meanwhile
      wait (one line per job), are counted as no attempt and ask for nothing more;
    * ``acoustic.mem_mb: 900`` is under the models' peak: SLURM kills each first attempt for
      memory, the cause is printed when SLURM reports it (before the run ends), and the retry
      asks for the larger of twice 900 and the predicted peak;
    * ``--set-resources units:runtime=1`` and a first attempt slowed past a minute: SLURM kills
      it at its time limit, and the retry asks ``runtime=2``.
    """
    from msbench.config import load_config
    from msbench.features.batches import acoustic_job

    work = copy_workflow(tmp_path / "faults")
    point_profile_at_test_cluster(work)
    override = work / "memory.yaml"
    override.write_text("acoustic:\n  mem_mb: 900\n")
    units_rule = work / "workflow" / "rules" / "systems.smk"
    slowed = "if [ ! -e .units-slowed ]; then touch .units-slowed; sleep 150; fi; "
    text = units_rule.read_text()
    assert '"msbench units' in text
    units_rule.write_text(text.replace('"msbench units', f'"{slowed}msbench units', 1))
    done = threading.Event()
    seconds = float(os.environ.get("MSBENCH_DRAIN_S", "60"))
    drain = threading.Thread(target=drain_once_running, args=(work, seconds, done), daemon=True)
    drain.start()
    try:
        result = snakemake(work, *UNITS_TARGETS, "--profile", "slurm", "--set-resources",
                           "units:runtime=1", configfiles=(str(override),))  # fmt: skip
    finally:
        done.set()
        drain.join(timeout=seconds + 60)
    log = result.stdout + result.stderr
    made, whole = manifest_bytes(work), manifest_bytes(clean_run)
    assert {"benchmark.csv", "recordings.csv"} <= set(made) and made == {n: whole[n] for n in made}
    assert units_bytes(work) == units_bytes(clean_run) != {}
    # the drain: refused submissions waited, said once per job, then went through
    assert "refused by SLURM (partition drained or down); retrying in" in log, log[-3000:]
    assert "submitted to SLURM after" in log
    # the memory kill: named at once (before the run's end), retried with the predicted peak
    said = result.stderr  # one stream, in the order it was written
    named = said.index("killed by SLURM for memory: used")
    assert named < said.rindex("steps (100%) done"), "the cause came only at the end"
    acoustic = load_config(work / "resources" / "demo" / "config.yaml")["acoustic"]
    predicted = {int(acoustic_job(p, 0, {**acoustic, "mem_mb": None})["predicted_mb"])
                 for p in (work / "results" / "ingest").glob("*/recordings.jsonl")}  # fmt: skip
    requested = {mem for mem, _ in requests_of(log, "acoustic").values()}
    assert requested == {900} | {max(1800, p) for p in predicted}, (requested, predicted)
    # the time-out: named, and the retry asked twice the user's runtime, the same memory
    assert "killed by SLURM at its time limit; its retry asks for twice the time" in log
    units = requests_of(log, "units")
    assert sorted(limit for _, limit in units.values()) == [1, 2], units
    assert len({mem for mem, _ in units.values()}) == 1, units
    batch_log = (work / "results/logs/acoustic/two_speaker/0-of-1.log.attempts").read_text()
    first = batch_log.index("mem_mb=900,")
    second = batch_log.index("mem_mb=", first + 1)
    assert first < batch_log.index("expected peak") < second  # the killed attempt's lines kept


def test_a_profile_run_with_a_cancelled_job_matches_the_local_run(tmp_path: Path, local_manifests):
    """The demo on SLURM (``--profile slurm``), one running acoustic job cancelled (scancel):
    the workflow notices (squeue status), retries it and finishes with the local run's outputs;
    the cancel is named; every other job COMPLETED; the loop's jobs went to SLURM too; every
    acoustic batch, the retry included, asked for what the memory and runtime model gives its
    audio, and every evaluate job for what the scoring model gives. (One run for what were two
    tests, the plain profile run and the cancel: issue 54.)"""
    import time

    work = copy_workflow(tmp_path / "cancel")
    point_profile_at_test_cluster(work)
    env = dict(os.environ, PATH=f"{Path(os.sys.executable).parent}:{os.environ['PATH']}")
    command = [os.sys.executable, "-m", "snakemake", "--profile", "slurm", "--configfile",
               "resources/demo/config.yaml", "--replace-workflow-config"]  # fmt: skip
    run = subprocess.Popen(command, cwd=work, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)  # fmt: skip
    cancelled, deadline = "", time.monotonic() + 600
    while not cancelled and time.monotonic() < deadline and run.poll() is None:
        rows = subprocess.run(["squeue", "-h", "-o", "%i|%Z|%k|%T"], capture_output=True,
                              text=True, timeout=30).stdout.splitlines()  # fmt: skip
        for job, folder, comment, state in (row.split("|") for row in rows):
            if folder == str(work) and "acoustic" in comment and state == "RUNNING":
                subprocess.run(["scancel", job], check=True, timeout=30)
                cancelled = job
                break
        time.sleep(1)
    try:
        out, _ = run.communicate(timeout=900)
    except subprocess.TimeoutExpired:
        run.kill()
        pytest.fail("the workflow hung after a cancel")
    assert cancelled, "no acoustic job was seen running"
    assert run.returncode == 0, out[-3000:]
    assert {**manifest_bytes(work), **loop_bytes(work)} == local_manifests
    assert f"SLURM job {cancelled}): cancelled" in out, out[-3000:]
    states = sacct_states(out)
    assert len(states) >= 5 and states.pop(cancelled).startswith("CANCELLED"), out[-3000:]
    assert set(states.values()) == {"COMPLETED"}, states
    for rule in ("units", "baseline", "evaluate", "diagnose"):  # the loop's jobs went to SLURM too
        assert f"rule {rule}:" in out or f"Rule: {rule}" in out, rule
    expected = model_requests(work)
    requested = requests_of(out, "acoustic")
    assert len(requested) == len(expected) + 1  # the cancelled batch ran twice
    assert set(requested.values()) == set(expected.values()), (requested, expected)
    for batch_log, (mem_mb, _) in expected.items():
        assert f"of the job's {mem_mb} MB" in (work / batch_log).read_text(), batch_log
    from msbench.features.job_size import evaluate_job

    job = evaluate_job(work / "results" / "manifests" / "benchmark.csv")
    evaluations = requests_of(out, "evaluate")
    assert evaluations, out[-3000:]
    assert set(evaluations.values()) == {(int(job["mem_mb"]), int(job["runtime"]))}, evaluations
