"""``auto``, ``cpu`` or ``cuda`` -> the device a model runs on."""

from __future__ import annotations

from msbench.errors import InputError


def resolve_device(requested: str, setting: str = "acoustic.device") -> str:
    """``cpu`` stays; ``auto`` is ``cuda`` when torch sees a GPU, else ``cpu``; ``cuda`` needs one."""
    if requested == "cpu":
        return "cpu"
    import torch

    if torch.cuda.is_available():
        return "cuda"
    if requested == "cuda":
        raise InputError(
            "config", f"{setting} is cuda but no GPU is visible", fix="use auto or cpu"
        )
    return "cpu"
