"""How a stage declares its command-line arguments, and the shared ``--config/--settings`` pair."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

from msbench.config import DEFAULT_CONFIG, resolve_settings

__all__ = ["DEFAULT_CONFIG", "Arg", "ConfigPath", "RuntimeJson", "SettingsJson", "resolve_settings"]


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

#: ``--force``: an output folder that holds files msbench did not write is replaced anyway
#: (naming them); without it, it is refused (:mod:`msbench.output_folders`).
Force = Annotated[
    bool, Arg("replace --out even where it holds files msbench did not write (naming them)")
]
