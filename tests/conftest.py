"""Shared fixtures and the xdist groups; helpers live in the ``tests.helpers`` package.

``scripts/run_tests.sh`` runs the suite on both cores (``pytest -n 2 --dist loadgroup``): the
tests of one shared workflow run, or of the loaded models, form a group that one worker runs in
order (a run is made once, a model loaded once); every other test goes to whichever worker is
free.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers.paths import SHARED_DATA, SHARED_MODELS, require_shared

#: The xdist group of a workflow test module that has its own runs (others: ``demo``).
WORKFLOW_GROUPS = {
    "test_slurm_cluster": "cluster",
    "test_deploy": "clean",
    "test_resume": "clean",
    "test_scenarios": "scenarios",
    "test_lint_gate": "lint",
}


#: Test modules whose fixture is expensive (a minute of scoring or synthesis): kept on one
#: worker, so the fixture (session-scoped: xdist may interleave other modules' tests, which
#: would tear a module-scoped one down) is made once, not once per worker.
MODULE_GROUPS = {"test_scoring_differential", "test_probes_simulated"}

#: The groups, longest first (seconds of one worker in docs/development.md's run), handed out in
#: this order (``--no-loadscope-reorder``; xdist would otherwise order by test count, which
#: puts the three cluster tests, 14 minutes of one worker, among the last); every other test after
#: them, in collection order, fills the workers' ends.
GROUP_ORDER = ("cluster", "demo", "clean", "test_scoring_differential", "models", "scenarios",
               "test_probes_simulated", "lint")  # fmt: skip


def run_order(path: str) -> int:
    """Where a test file's tests are handed out: its group's place, ungrouped ones last.

    >>> run_order("tests/workflow/test_slurm_cluster.py"), run_order("tests/unit/test_scoring.py")
    (0, 8)
    """
    group = group_of(path)
    return GROUP_ORDER.index(group) if group in GROUP_ORDER else len(GROUP_ORDER)


def group_of(path: str) -> str | None:
    """The xdist group of a test file (None: any worker).

    >>> group_of("tests/workflow/test_export.py"), group_of("tests/models/test_models.py")
    ('demo', 'models')
    >>> group_of("tests/unit/test_scoring.py") is None, group_of("tests/unit/test_probes_simulated.py")
    (True, 'test_probes_simulated')
    """
    if Path(path).stem in MODULE_GROUPS:
        return Path(path).stem
    parts = path.replace(os.sep, "/").split("/")
    if "workflow" in parts:
        return WORKFLOW_GROUPS.get(Path(path).stem, "demo")
    if "models" in parts:
        return "models"
    return None


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the marks into node ids
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        group = group_of(str(item.fspath))
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    items.sort(key=lambda item: run_order(str(item.fspath)))  # stable: files keep their order


def lost_group(path: str, nodeid: str) -> str | None:
    """The group a test of file ``path`` should carry but its node id lacks (xdist's ``@group``).

    >>> lost_group("tests/models/test_models.py", "tests/models/test_models.py::test_a@models")
    >>> lost_group("tests/unit/test_scoring.py", "tests/unit/test_scoring.py::t")
    >>> lost_group("tests/models/test_models.py", "tests/models/test_models.py::test_a")
    'models'
    """
    group = group_of(path)
    return group if group is not None and not nodeid.endswith(f"@{group}") else None


def pytest_runtest_setup(item: pytest.Item) -> None:
    """On an xdist worker under ``--dist loadgroup``: fail a grouped test whose group was lost.

    xdist groups by the ``@group`` its hook writes into each node id; when that write is lost
    (pytest 9.2 moved the id from ``Node._nodeid``, which xdist 3.8 still writes), every test
    goes to any worker, each worker makes every shared run and model, and the suite is minutes
    slower while passing. This turns that into failures naming the cause.
    """
    if not getattr(item.config.option, "loadgroup", False):
        return
    group = lost_group(str(item.fspath), item.nodeid)
    if group is not None:
        pytest.fail(
            f"--dist loadgroup: {item.nodeid} lost its xdist group ({group}); this pytest and"
            " pytest-xdist do not work together (pyproject.toml's test extra pins pytest below"
            " 9.2): reinstall with scripts/bootstrap.sh",
            pytrace=False,
        )


@pytest.fixture
def shared_data() -> Path:
    return require_shared(SHARED_DATA)


@pytest.fixture
def shared_models() -> Path:
    return require_shared(SHARED_MODELS)
