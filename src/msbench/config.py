"""Configuration: one JSON schema documents every key and fills the defaults.

The schema files live in ``msbench/schemas/`` (``workflow/schemas/`` links to
them), so the Snakefile's ``validate`` and the command line see the same rules.
"""

from __future__ import annotations

import copy
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from msbench.errors import ConfigError


@cache
def load_schema(name: str) -> dict[str, Any]:
    text = resources.files("msbench.schemas").joinpath(name).read_text(encoding="utf-8")
    return yaml.safe_load(text)


def _validator_filling_defaults() -> Any:
    from jsonschema import Draft202012Validator, validators

    def set_defaults(validator: Any, properties: Any, instance: Any, schema: Any) -> Any:
        if isinstance(instance, dict):
            for key, subschema in properties.items():
                if "default" in subschema:
                    instance.setdefault(key, copy.deepcopy(subschema["default"]))
        yield from Draft202012Validator.VALIDATORS["properties"](
            validator, properties, instance, schema
        )

    return validators.extend(Draft202012Validator, {"properties": set_defaults})


def validate_against(schema_name: str, instance: dict[str, Any], where: str) -> dict[str, Any]:
    """Validate in place, filling defaults; raise ConfigError naming the key path."""
    validator = _validator_filling_defaults()(load_schema(schema_name))
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        key = ".".join(str(part) for part in first.absolute_path) or "(top level)"
        raise ConfigError(f"{where}: {key}: {first.message}")
    return instance


def load_config(path: str | Path | None = None) -> dict[str, Any]:
    """Read ``config.yaml`` (or start empty) and return it validated, defaults filled."""
    config: dict[str, Any] = {}
    if path is not None:
        try:
            config = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as error:
            raise ConfigError(f"{path}: cannot read config ({error})") from error
    return validate_against("config.schema.yaml", config, str(path or "defaults"))


def default_config() -> dict[str, Any]:
    return load_config(None)
