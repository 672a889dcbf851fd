"""The real models, loaded once per test run (each xdist worker that runs model tests: the
``models`` group keeps them on one) and shared by every model test."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers.paths import SHARED_MODELS, require_shared


@pytest.fixture(scope="session")
def model_settings() -> dict[str, Any]:
    """The models section of the config with this machine's shared weights, offline."""
    from msbench.config import default_config

    return dict(
        default_config()["models"],
        search_dirs=[str(require_shared(SHARED_MODELS))],
        offline=True,
        campplus={"path": None},
        nisqa={"path": None},
    )


@pytest.fixture(scope="session")
def embedder(model_settings: dict[str, Any]) -> Any:
    from msbench.models.campplus import CamPlusEmbedder

    return CamPlusEmbedder(model_settings, 1, "cpu")


@pytest.fixture(scope="session")
def dnsmos() -> Any:
    from msbench.models.dnsmos import DnsmosScorer

    return DnsmosScorer({"hop_seconds": 1.0, "max_windows": None})


@pytest.fixture(scope="session")
def nisqa(model_settings: dict[str, Any]) -> Any:
    from msbench.models.nisqa import NisqaScorer

    return NisqaScorer({"chunk_seconds": 10.0, "max_chunks": None}, model_settings)
