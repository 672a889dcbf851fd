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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        group = group_of(str(item.fspath))
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


@pytest.fixture
def shared_data() -> Path:
    return require_shared(SHARED_DATA)


@pytest.fixture
def shared_models() -> Path:
    return require_shared(SHARED_MODELS)
