"""msbench deployed as Snakemake workflows are deployed: snakedeploy writes a folder whose
Snakefile uses msbench's workflow/Snakefile as a module; with the demo's configuration copied
there, the run's manifests, leaderboard and probes are byte-identical to the in-repository run.
Also: ``snakemake --report report.zip`` holds the results, and the SLURM profile copied beside
the deployment dry-runs, while a real cluster run with its placeholders stops before submitting.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from tests.helpers.paths import REPO, SHARED_MODELS, require_shared
from tests.helpers.workflow import loop_bytes

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        sys.version_info >= (3, 13),
        reason="snakedeploy 0.17.1, which deploys the workflow here, declares Python < 3.13",
    ),
]
COMPARED = ("results/evaluation/leaderboard.md", "results/evaluation/leaderboard.csv",
            "results/probes/items.jsonl", "results/probes/probe_summary.json")  # fmt: skip


def run(workdir: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(list(args), cwd=workdir, env=env, capture_output=True, text=True,
                          timeout=3000, check=False)  # fmt: skip
    if check and done.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    return done


def deploy(target: Path) -> Path:
    """snakedeploy on a clone of this repository, then the demo's data and configuration.

    For a repository on GitHub snakedeploy writes ``snakefile: github("owner/msbench",
    path="workflow/Snakefile", ...)``; for a local clone it writes the relative
    ``"workflow/Snakefile"``, which would name the deployment's own file: the test writes the
    clone's path there instead, the same module declaration otherwise.
    """
    clone = target.parent / "clone"
    run(target.parent, "git", "clone", "-q", str(REPO), str(clone))
    run(target.parent, str(Path(sys.executable).parent / "snakedeploy"), "deploy-workflow",
        str(clone), str(target), "--branch", "main")  # fmt: skip
    snakefile = target / "workflow" / "Snakefile"
    text = snakefile.read_text()
    assert re.search(r'snakefile:\s*\n\s*"workflow/Snakefile"', text), text
    snakefile.write_text(text.replace('"workflow/Snakefile"', f'"{clone}/workflow/Snakefile"'))
    assert "use rule * from" in text and "config:\n        config" in text
    shutil.copytree(REPO / "resources" / "demo", target / "resources" / "demo")
    config = yaml.safe_load((REPO / "resources/demo/config.yaml").read_text())
    config["models"]["search_dirs"] = [str(require_shared(SHARED_MODELS))]
    (target / "config" / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return target


#: The line of slurm/config.yaml that holds the partition placeholder (named in the refusal).
PARTITION_LINE = next(
    n
    for n, line in enumerate((REPO / "slurm/config.yaml").read_text().splitlines(), start=1)
    if "EDIT-ME-partition" in line
)


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def runs(tmp_path_factory: pytest.TempPathFactory, clean_run: Path) -> tuple[Path, Path]:
    """The deployment's own run, and the in-repository one it must equal (the shared clean
    demo run: two independent runs of the same inputs)."""
    deployed = deploy(tmp_path_factory.mktemp("deploy") / "deployed")
    shutil.copytree(REPO / "slurm", deployed / "slurm")
    refused = run(deployed, sys.executable, "-m", "snakemake", "--profile", "slurm", check=False)
    assert refused.returncode != 0
    assert f"slurm/config.yaml: line {PARTITION_LINE}" in refused.stderr
    assert "onstart" not in refused.stdout
    assert not (deployed / "results" / "ingest").exists()  # nothing ran, nothing was submitted
    run(deployed, sys.executable, "-m", "snakemake", "--cores", "2")
    return deployed, clean_run


def test_the_deployed_module_gives_the_in_repository_results(runs: tuple[Path, Path]):
    deployed, in_repo = runs
    manifests = sorted(p.name for p in (in_repo / "results/manifests").iterdir())
    assert manifests and manifests == sorted(
        p.name for p in (deployed / "results/manifests").iterdir()
    )
    for name in manifests:
        assert (deployed / "results/manifests" / name).read_bytes() == (
            in_repo / "results/manifests" / name
        ).read_bytes(), name
    for path in COMPARED:
        assert (deployed / path).read_bytes() == (in_repo / path).read_bytes(), path
    # and everything the loop writes: the baseline's outputs, every evaluation table, the
    # review site, the probes (determinism across two independent runs)
    assert loop_bytes(deployed) == loop_bytes(in_repo)


def test_the_slurm_profile_dry_runs_from_the_deployment(runs: tuple[Path, Path]):
    deployed, _ = runs
    dry = run(deployed, sys.executable, "-m", "snakemake", "--profile", "slurm", "-n")
    assert f"still holds its placeholders (slurm/config.yaml: line {PARTITION_LINE}" in dry.stderr
    assert "Nothing to be done" in dry.stdout + dry.stderr


def test_the_report_holds_the_results(runs: tuple[Path, Path]):
    deployed, _ = runs
    run(deployed, sys.executable, "-m", "snakemake", "--report", "report.zip")
    names = zipfile.ZipFile(deployed / "report.zip").namelist()
    for wanted in ("leaderboard.md", "leaderboard_views.csv", "table2.md", "table2_intervals.md",
                   "by_condition.png", "conditions.png", "error_decomposition.png", "coverage.png",
                   "profile_coverage.png", "selection_report.json", "summary.json", "compare.md",
                   "probe_summary.json", "index.html", "probes.html"):  # fmt: skip
        assert any(name.endswith(wanted) for name in names), (wanted, names[:40])
