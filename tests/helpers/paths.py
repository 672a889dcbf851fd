"""Paths to the repository, the shared data and the model weights; skip rules for ../shared."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("MSBENCH_SHARED", REPO.parent / "shared"))
SHARED_DATA = SHARED / "data"
SHARED_MODELS = SHARED / "models"
DEMO = REPO / "resources" / "demo"


def require_shared(path: Path) -> Path:
    """Skip only when ../shared is absent (never in CI, where it is always laid out)."""
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing in CI; ../shared must be present")
        pytest.skip(f"{path} not present on this machine")
    return path
