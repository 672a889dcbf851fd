"""The catalog's test scenarios (.test/config-*/config.yaml), each layered over the demo's
configuration and run one after another in one working folder: each reruns only what its
settings change, and leaves the results its scenario promises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.paths import REPO
from tests.helpers.workflow import copy_workflow, snakemake

pytestmark = pytest.mark.slow
SCENARIOS = sorted(p.parent.name for p in (REPO / ".test").glob("config-*/config.yaml"))


def test_the_catalog_files_are_there():
    for name in (
        ".snakemake-workflow-catalog.yml",
        "LICENSE",
        "workflow/Snakefile",
        ".test/README.md",
    ):
        assert (REPO / name).is_file(), name
    assert {"config-demo", "config-build-only", "config-two-systems"} <= set(SCENARIOS)
    assert "Apache License" in (REPO / "LICENSE").read_text()


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = copy_workflow(tmp_path_factory.mktemp("scenarios"))
    (work / ".test").mkdir()
    for name in SCENARIOS:
        (work / ".test" / name).mkdir()
        (work / ".test" / name / "config.yaml").write_text(
            (REPO / ".test" / name / "config.yaml").read_text()
        )
    return work


def run(work: Path, scenario: str) -> None:
    snakemake(work, "--cores", "2", configfiles=(f".test/{scenario}/config.yaml",))


def test_build_only_builds_the_benchmark_and_scores_nothing(work: Path):
    run(work, "config-build-only")
    assert (work / "results/manifests/benchmark.csv").stat().st_size > 0
    assert (work / "results/review/index.html").is_file()
    assert not (work / "results/evaluation").exists() and not (work / "results/probes").exists()


def test_two_systems_are_compared_without_recharacterizing(work: Path):
    planned = snakemake(work, "--cores", "1", "--dry-run",
                        configfiles=(".test/config-two-systems/config.yaml",)).stdout  # fmt: skip
    assert "acoustic" not in planned.split("Job stats:")[-1].split("Reasons:")[0]
    run(work, "config-two-systems")
    pairs = json.loads((work / "results/evaluation/compare/compare.json").read_text())
    assert "careful" in json.dumps(pairs) and "hasty" in json.dumps(pairs)
    board = (work / "results/evaluation/leaderboard.md").read_text()
    assert "careful" in board and "hasty" in board and "baseline" not in board
