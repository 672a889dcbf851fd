"""``msbench bin``: label recordings with their condition ranges (P, O, S, T, N)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def write_labelled(path: Path, rows: list[dict[str, Any]]) -> None:
    """CSV or JSONL by extension; CSV gets P..N columns after the input's own columns."""
    from msbench.benchmark.manifests import flatten_conditions
    from msbench.columns import AXES
    from msbench.tables import write_csv
    from msbench.textio import write_jsonl

    if path.suffix == ".csv":
        columns = list(dict.fromkeys([*(rows[0] if rows else {}), *AXES]))
        write_csv(path, (flatten_conditions(r) for r in rows), columns, exact=True)
    else:
        write_jsonl(path, rows)  # input values exactly as read


def run(
    features: Annotated[
        Path,
        Arg(
            "features table (CSV/JSONL, official field names)", positional=True, metavar="FEATURES"
        ),
    ],
    out: Annotated[Path, Arg("output table (.csv or .jsonl)", short="-o")],
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

    from msbench.benchmark.conditions import build_condition_space, label_rows
    from msbench.tables import read_table
    from msbench.textio import write_atomic

    resolved = resolve_settings(config, settings)
    rows = read_table(features)
    pool_rows = [row for row in rows if row.get("eligible", True)]
    space = build_condition_space(resolved["condition_space"], pool_rows)
    write_labelled(out, label_rows(rows, space))
    if space_out:
        document = yaml.safe_dump(space.to_yaml_dict(), sort_keys=False, allow_unicode=True)
        write_atomic(space_out, document)
