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

    Every parameter is a named option (``out_dir`` -> ``--out-dir``): no
    stage takes positional arguments or short flags, so every command reads
    alike. ``metavar`` names it in usage lines; ``choices`` restricts it.
    """

    help: str
    metavar: str | None = None
    choices: tuple[str, ...] | None = None


#: Read by the stages when no --config is given and it exists in the working directory.
DEFAULT_CONFIG = Path("config/config.yaml")

ConfigPath = Annotated[
    Path | None,
    Arg(
        "config.yaml to read (default: config/config.yaml when it exists, else the schema defaults)",
        metavar="YAML",
    ),
]
SettingsJson = Annotated[
    str | None,
    Arg("JSON object of config sections laid over --config (what the rules pass)", metavar="JSON"),
]


RuntimeJson = Annotated[
    str | None,
    Arg(
        "JSON of settings that change how, not what (threads, weight folders), laid last",
        metavar="JSON",
    ),
]


def resolve_settings(
    config: Path | None, settings: str | None, runtime: str | None = None
) -> dict[str, Any]:
    """The config file, with the ``settings`` JSON sections laid over it; the source is logged.

    ``runtime`` (the rules' runtime-only keys) is laid last, key by key within
    each section.

    Without ``--config``, ``config/config.yaml`` of the working directory is
    read when it exists (as when a stage runs by hand in the repository), else
    the schema defaults. The result is validated, defaults filled in.
    """
    import sys

    from msbench.config import complete_config, load_config, refuse_repeated_keys

    if config is None and DEFAULT_CONFIG.exists():
        config = DEFAULT_CONFIG
    resolved = load_config(config)
    used = str(config) if config else "the schema defaults"
    if settings:
        try:
            override = json.loads(settings, object_pairs_hook=refuse_repeated_keys)
        except json.JSONDecodeError as error:
            raise ConfigError(f"--settings is not valid JSON: {error}") from error
        resolved.update(override)
        complete_config(resolved, "--settings")
        used += f", with {', '.join(sorted(override))} from --settings"
    print(f"msbench: config: {used}", file=sys.stderr)
    for section, values in json.loads(runtime or "{}").items():
        resolved[section] = {**resolved[section], **values}
    return resolved
