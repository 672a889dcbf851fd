"""``msbench bin``: label recordings with their condition ranges (P, O, S, T, N)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def run(
    features: Annotated[
        Path,
        Arg("features table (CSV/JSONL, official field names)"),
    ],
    out: Annotated[Path, Arg("output table (.csv or .jsonl)")],
    space_out: Annotated[Path | None, Arg("write the condition space used (YAML)")] = None,
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Label a features table (CSV/JSONL, official field names) with condition ranges.

    Adds `conditions` (P, O, S, T, N labels) and `profile` to every row of
    FEATURES, keeping every input field. Works on the official release
    metadata.jsonl.
    """
    import yaml

    from msbench.catalog import CHARACTERIZED
    from msbench.construction.condition_space import build_condition_space, label_rows
    from msbench.construction.manifests import write_labelled
    from msbench.tables import nonempty, read_rows
    from msbench.textio import write_atomic

    resolved = resolve_settings(config, settings)
    rows = nonempty(read_rows(CHARACTERIZED, features), features)
    pool_rows = [row for row in rows if row.get("eligible", True)]
    space = build_condition_space(resolved["condition_space"], pool_rows)
    write_labelled(out, label_rows(rows, space))
    if space_out:
        document = yaml.safe_dump(space.to_yaml_dict(), sort_keys=False, allow_unicode=True)
        write_atomic(space_out, document)
