"""How a stage declares its command-line arguments, and the shared ``--config/--settings`` pair."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from msbench.errors import ConfigError


@dataclass(frozen=True)
class Arg:
    """Command-line facts of one stage parameter (its type and default are the signature's).

    ``positional`` makes it an argument without a flag; ``short`` adds a short
    flag (``-o``); ``metavar`` names it in usage lines; ``choices`` restricts it.
    """

    help: str
    positional: bool = False
    short: str | None = None
    metavar: str | None = None
    choices: tuple[str, ...] | None = None


ConfigPath = Annotated[
    Path | None, Arg("config.yaml to read (default: the schema defaults)", metavar="YAML")
]
SettingsJson = Annotated[
    str | None,
    Arg("JSON object of config sections laid over --config (what the rules pass)", metavar="JSON"),
]


def resolve_settings(config: Path | None, settings: str | None) -> dict[str, Any]:
    """The config file (or the defaults), with the ``settings`` JSON sections laid over it.

    The result is validated against the config schema, defaults filled in.
    """
    from msbench.config import load_config, validate_against

    resolved = load_config(config)
    if settings:
        try:
            override = json.loads(settings)
        except json.JSONDecodeError as error:
            raise ConfigError(f"--settings is not valid JSON: {error}") from error
        resolved.update(override)
        validate_against("config.schema.yaml", resolved, "--settings")
    return resolved
