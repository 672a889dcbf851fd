"""Shared fixtures; helpers live in the ``tests.helpers`` package."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.paths import SHARED_DATA, SHARED_MODELS, require_shared


@pytest.fixture
def shared_data() -> Path:
    return require_shared(SHARED_DATA)


@pytest.fixture
def shared_models() -> Path:
    return require_shared(SHARED_MODELS)
