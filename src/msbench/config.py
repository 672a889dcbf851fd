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

#: Settings whose allowed values are registered on a later floor, each named once, as
#: ``module:attribute`` (resolved when a schema is loaded, as the format registry's readers
#: are): a probe family's code is its record's key, an export's name its writer's.
REGISTERED_CHOICES = {
    "probes.families": "msbench.probes.families:FAMILIES",
    "export.formats": "msbench.export.writers:EXPORTS",
}
#: The format registry's lists (:mod:`msbench.io.registry`, a floor above this one).
FORMAT_CHOICES = "msbench.io.registry:"


def load(reference: str) -> Any:
    """``"msbench.probes.families:FAMILIES"`` -> that module attribute (imported when asked)."""
    import importlib

    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


@cache
def load_schema(name: str) -> dict[str, Any]:
    """A schema, with its enums filled from the registries: the formats from
    :mod:`msbench.io.registry`, the families and exports from :data:`REGISTERED_CHOICES`
    (the YAML files name none of them; a list setting's default is every registered value)."""
    annotation, scoring, output = (
        load(FORMAT_CHOICES + name)
        for name in ("ANNOTATION_FORMATS", "SCORING_FORMATS", "OUTPUT_FORMATS")
    )
    text = resources.files("msbench.schemas").joinpath(name).read_text(encoding="utf-8")
    schema = yaml.safe_load(text)
    if name == "datasets.schema.yaml":
        schema["properties"]["adapter"]["enum"] = list(annotation)
    if name == "config.schema.yaml":
        system = schema["properties"]["systems"]["items"]["properties"]
        system["format"]["enum"] = list(scoring)
        schema["properties"]["baseline"]["properties"]["output_format"]["enum"] = list(output)
        for key, registry in REGISTERED_CHOICES.items():
            section, setting = key.split(".")
            entry = schema["properties"][section]["properties"][setting]
            entry["items"]["enum"] = list(load(registry))
            if entry.get("default") == "all registered":
                entry["default"] = list(load(registry))
    return schema


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


def _one_line(error: Any) -> str:
    """A schema error as one line: the key path, what is wrong, what is allowed."""
    key = ".".join(str(part) for part in error.absolute_path) or "(top level)"
    schema, instance, kind = error.schema, error.instance, error.validator
    if kind == "enum":
        return f"{key}: {instance!r} is not allowed; allowed: {', '.join(map(str, schema['enum']))}"
    if kind == "type":
        return f"{key}: expected {schema['type']}, got {type(instance).__name__} {str(instance)[:60]!r}"
    if kind == "additionalProperties":
        extra = sorted(set(instance) - set(schema.get("properties", {})))
        allowed = ", ".join(sorted(schema.get("properties", {})))
        return f"{key}: unknown key(s) {', '.join(extra)}; allowed: {allowed}"
    described = schema.get("description", "")
    hint = f" ({described.strip()[:120]})" if described else ""
    return f"{key}: {error.message[:160]}{hint}"


def validate_against(schema_name: str, instance: dict[str, Any], where: str) -> dict[str, Any]:
    """Validate in place, filling defaults; raise ConfigError with one line per problem."""
    validator = _validator_filling_defaults()(load_schema(schema_name))
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"{where}: {_one_line(error)}" for error in errors]
        raise ConfigError("\n".join(lines))
    return instance


def axis_defaults() -> dict[str, dict[str, Any]]:
    """The default of every condition axis, as the schema writes it (closure etc. filled)."""
    schema = load_schema("config.schema.yaml")
    axes = schema["properties"]["condition_space"]["properties"]["axes"]["properties"]
    closure = schema["$defs"]["axis"]["properties"]
    filled = {key: spec["default"] for key, spec in closure.items() if "default" in spec}
    return {name: {**filled, **spec["default"]} for name, spec in axes.items()}


def merge_axis_overrides(config: dict[str, Any]) -> list[str]:
    """Lay each configured axis over its default (a partial override keeps the rest).

    Returns one warning per axis whose direction (``descending``) or closure
    (``closed``) the override changes. Giving ``quantiles`` drops the default ``edges``.
    """
    axes = (config.get("condition_space") or {}).get("axes") or {}
    warnings = []
    for name, default in axis_defaults().items():
        given = axes.get(name)
        if not isinstance(given, dict):
            continue
        base = {k: v for k, v in default.items() if not ("quantiles" in given and k == "edges")}
        merged = {**base, **given}
        for key in ("descending", "closed"):
            if merged.get(key) != default.get(key):
                warnings.append(
                    f"condition_space.axes.{name}.{key} is {merged.get(key)!r} "
                    f"(MS-Bench: {default.get(key)!r}): the labels of {name} change meaning"
                )
        axes[name] = merged
    return warnings


def non_finite(value: Any, path: str = "") -> list[str]:
    """Dotted keys whose value is NaN or infinite (YAML's ``.nan``, ``.inf``).

    >>> non_finite({"selection": {"max_hours": float("nan"), "min_hours": 1}, "x": [float("inf")]})
    ['selection.max_hours', 'x[0]']
    """
    import math

    if isinstance(value, dict):
        return [k for key, v in value.items() for k in non_finite(v, f"{path}.{key}".lstrip("."))]
    if isinstance(value, list):
        return [k for i, v in enumerate(value) for k in non_finite(v, f"{path}[{i}]")]
    if isinstance(value, float) and not math.isfinite(value):
        return [path]
    return []


def check_finite(config: dict[str, Any], where: str) -> None:
    """No setting may be NaN or infinite (the schema's bounds let NaN through)."""
    if bad := non_finite(config):
        raise ConfigError(
            f"{where}: {', '.join(bad)}: not a finite number (NaN or infinity); give a number"
        )


def check_edges(config: dict[str, Any], where: str) -> None:
    """Range edges and quantiles strictly increase: a descending or repeated edge is an error.

    (``descending: true`` reverses the labels, never the edges' order.)
    """
    axes = ((config.get("condition_space") or {}).get("axes")) or {}
    for name, axis in axes.items():
        for key in ("edges", "quantiles"):
            cuts = (axis or {}).get(key) or []
            for k, (low, high) in enumerate(zip(cuts, cuts[1:], strict=False)):
                if not low < high:
                    kind = "repeated (an empty range)" if low == high else "descending"
                    raise ConfigError(
                        f"{where}: condition_space.axes.{name}.{key}: {kind} edge {high!r} after "
                        f"{low!r} (item {k + 1}); list the edges in increasing order, each once "
                        "(use `descending: true` to reverse the labels)"
                    )


def check_challenging(config: dict[str, Any]) -> None:
    """``utility.challenging`` names ranges that exist, at the end they meant (MS-Bench's)."""
    defaults = axis_defaults()
    for label in (config.get("utility") or {}).get("challenging") or []:
        name, index = label[0], int(label[1:])
        axis = config["condition_space"]["axes"][name]
        cuts = axis.get("quantiles") or axis.get("edges") or []
        ranges = len(cuts) + 1 + (1 if axis.get("zero_bin") else 0)
        if index >= ranges:
            raise ConfigError(
                f"utility.challenging: {label} does not exist: axis {name} has ranges "
                f"{name}0..{name}{ranges - 1} (condition_space.axes.{name})"
            )
        if axis.get("descending") != defaults[name].get("descending"):
            raise ConfigError(
                f"utility.challenging: {label} now means the opposite end of axis {name} "
                f"(condition_space.axes.{name}.descending is {axis.get('descending')}); "
                "list the challenging ranges again for the new direction"
            )


def check_probes(config: dict[str, Any]) -> None:
    """The probe settings that the schema cannot relate: the shortest voice is not the longer."""
    probes = config.get("probes") or {}
    low, high = probes.get("voice_min_seconds", 2.0), probes.get("voice_max_seconds", 4.0)
    if low > high:
        raise ConfigError(
            f"probes.voice_min_seconds ({low}) is above probes.voice_max_seconds ({high}): "
            "the shortest reference voice must not be longer than the longest"
        )


def complete_config(config: dict[str, Any], where: str) -> dict[str, Any]:
    """Merge axis overrides, validate (defaults filled), check consistency; warnings to stderr."""
    import sys

    for warning in merge_axis_overrides(config):
        print(f"msbench: warning: {where}: {warning}", file=sys.stderr)
    check_finite(config, where)
    validate_against("config.schema.yaml", config, where)
    check_edges(config, where)
    check_challenging(config)
    check_probes(config)
    check_system_ids(config, where)
    return config


def _repeated_keys(node: Any, path: str) -> list[str]:
    """Keys given twice in one mapping of a composed YAML document, with their lines."""
    found = []
    if isinstance(node, yaml.MappingNode):
        seen: dict[Any, int] = {}
        for key, value in node.value:
            name = getattr(key, "value", None)
            line = key.start_mark.line + 1
            if isinstance(name, str) and name in seen:
                found.append(
                    f"{path}:line {line}: key {name!r} is given twice in one block (first at "
                    f"line {seen[name]}); the later one would replace the earlier silently: "
                    "merge them into one"
                )
            seen.setdefault(name, line)
            found += _repeated_keys(value, path)
    elif isinstance(node, yaml.SequenceNode):
        for item in node.value:
            found += _repeated_keys(item, path)
    return found


def read_yaml(path: str | Path) -> Any:
    """A YAML file, strictly: a syntax error names the file and line, and a key given twice
    in one mapping (which PyYAML and Snakemake let the later one win) is refused."""
    try:
        text = Path(path).read_text(encoding="utf-8")
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except OSError as error:
        raise ConfigError(f"{path}: cannot read config ({error.strerror})") from error
    except UnicodeDecodeError as error:
        raise ConfigError(
            f"{path}: not UTF-8 text (byte {error.start}); save it as UTF-8"
        ) from error
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f":line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(error, "problem", None) or str(error)
        raise ConfigError(f"{path}{where}: invalid YAML: {problem}") from error
    if repeated := _repeated_keys(node, str(path)):
        raise ConfigError("\n".join(repeated))
    return yaml.safe_load(text)


def refuse_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object's pairs as a dict; a key given twice is refused, as the YAML reader does.

    >>> refuse_repeated_keys([("a", 1), ("a", 2)])
    Traceback (most recent call last):
    ...
    msbench.errors.ConfigError: --settings: key 'a' is given twice in one object; the later one would replace the earlier silently: merge them into one
    """
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ConfigError(
                f"--settings: key {key!r} is given twice in one object; the later one would "
                "replace the earlier silently: merge them into one"
            )
        seen[key] = value
    return seen


def check_config_files(paths: list[str]) -> None:
    """Read each config file strictly (:func:`read_yaml`) before the workflow trusts it."""
    for path in paths:
        if Path(path).exists():
            read_yaml(path)


#: Ids no configured system may take: the built-in baseline's, and the comparison's folder.
RESERVED_SYSTEM_IDS = {
    "baseline": "the built-in baseline's id (baseline.enabled)",
    "compare": "the comparison's folder (results/evaluation/compare/)",
}


def check_system_ids(config: dict[str, Any], where: str) -> None:
    """Each system id once, none reserved (:data:`RESERVED_SYSTEM_IDS`); a simulated system's
    outputs default to ``results/systems/<id>``."""
    seen: dict[str, int] = {}
    for index, entry in enumerate(config.get("systems") or []):
        system_id = entry.get("id") if isinstance(entry, dict) else None
        if system_id in RESERVED_SYSTEM_IDS:
            raise ConfigError(
                f"{where}: systems[{index}].id {system_id!r} is "
                f"{RESERVED_SYSTEM_IDS[system_id]}; give this system another id"
            )
        if isinstance(entry, dict) and "simulate" in entry:
            entry.setdefault("outputs", f"results/systems/{system_id}")
        if system_id in seen:
            raise ConfigError(
                f"{where}: systems[{index}].id {system_id!r} is also systems[{seen[system_id]}].id:"
                " one of them would never be scored; give each system its own id"
            )
        if isinstance(system_id, str):
            seen[system_id] = index


def load_config(path: str | Path | None = None) -> dict[str, Any]:
    """Read ``config.yaml`` (or start empty) and return it validated, defaults filled."""
    config: dict[str, Any] = read_yaml(path) or {} if path is not None else {}
    return complete_config(config, str(path or "defaults"))


def default_config() -> dict[str, Any]:
    return load_config(None)


#: Read by the stages when no --config is given and it exists in the working directory.
DEFAULT_CONFIG = Path("config/config.yaml")


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
    import json
    import sys

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
