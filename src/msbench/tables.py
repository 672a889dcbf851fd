"""Every table is read and written through here, by its declaration (:mod:`msbench.catalog`):
fixed column order, fixed number format.

Formatting makes manifests byte-identical across runs: floats are rounded to
6 decimals (the official release's precision for features) and printed with
``repr``; missing values are empty cells in CSV and ``null`` in JSONL;
booleans are ``true``/``false``.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar, cast, is_typeddict

from msbench.catalog import Table
from msbench.columns import parse_cell
from msbench.errors import InputError
from msbench.rows import types_of
from msbench.textio import dumps_jsonl, json_line, read_checked, read_jsonl, write_recorded

FLOAT_DECIMALS = 6


def clean_value(value: Any) -> Any:
    """Round floats, turn NaN into None, leave everything else."""
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return round(value, FLOAT_DECIMALS) + 0.0  # + 0.0 turns -0.0 into 0.0
    return value


def _cell(value: Any, exact: bool = False) -> str:
    value = value if exact else clean_value(value)
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def csv_text(rows: Iterable[Mapping[str, Any]], columns: Sequence[str], exact: bool = False) -> str:
    """CSV with the given columns; ``exact`` keeps floats unrounded (values passed through)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(column), exact) for column in columns])
    return buffer.getvalue()


def jsonl_text(rows: Iterable[Mapping[str, Any]], columns: Sequence[str] | None = None) -> str:
    lines = []
    for row in rows:
        keys = columns if columns is not None else list(row)
        lines.append(json_line({k: _json_value(row.get(k)) for k in keys}))
    return "".join(line + "\n" for line in lines)


def _json_value(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_value(v) for v in value]
    return clean_value(value)


R = TypeVar("R")

#: Where to look when a table a stage needs is empty (its file name -> the explanation).
WHY_EMPTY = {
    "characterized.jsonl": "every recording was rejected, or none was ingested: read "
    "results/manifests/rejected.csv and run_summary.json",
    "labelled.jsonl": "every recording was rejected, or none was ingested: read "
    "results/manifests/rejected.csv and run_summary.json",
    "candidate_pool.csv": "every recording left the pool: read results/benchmark/"
    "pool_excluded.jsonl, and relax the pool settings",
    "benchmark.csv": "the selection chose no recording: read results/manifests/"
    "selection_report.json",
}


def nonempty(rows: list[R], path: str | Path) -> list[R]:
    """``rows``, or an InputError naming the empty table and where to look for why.

    >>> nonempty([], "results/manifests/benchmark.csv")
    Traceback (most recent call last):
    ...
    msbench.errors.InputError: results/manifests/benchmark.csv: holds no row (the selection chose no recording: read results/manifests/selection_report.json)
    """
    if not rows:
        why = WHY_EMPTY.get(Path(path).name, "the stage that writes it found nothing to write")
        raise InputError(path, "holds no row", fix=why)
    return rows


def read_rows(table: Table[R], path: str | Path) -> list[R]:
    """A declared table's rows (:mod:`msbench.catalog`), CSV cells parsed by its row type.

    Columns the row type does not declare keep the declared type of their name
    (:data:`msbench.columns.COLUMN_TYPES`); a cell that does not parse names the file,
    line and column. A column the table requires that the file lacks is named with the
    stage that writes it: the row type's required keys, or, for a table typed by name,
    every declared column.
    """
    kinds = types_of(table.row) if is_typeddict(table.row) else {}
    if is_typeddict(table.row):
        required: tuple[str, ...] = tuple(
            c for c in kinds if c in getattr(table.row, "__required_keys__", ())
        )
    else:
        required = table.columns or ()
    if str(path).endswith((".jsonl", ".jsonl.gz")):
        rows = []
        for number, row in enumerate(read_jsonl(path), start=1):
            _require(table, path, row, required, f"line {number}")
            rows.append(cast(R, row))
        return rows
    reader = csv.DictReader(io.StringIO(read_checked(path), newline=""))
    _require(table, path, reader.fieldnames or (), required, "line 1")
    parsed = []
    for number, row in enumerate(reader, start=2):
        try:
            parsed.append(cast(R, {k: parse_cell(k, v, kinds.get(k)) for k, v in row.items()}))
        except ValueError as error:
            raise InputError(path, str(error), where=f"line {number}") from error
    return parsed


def _require(
    table: Table[Any], path: str | Path, present: Iterable[str], required: Sequence[str], where: str
) -> None:
    have = set(present)
    missing = [column for column in required if column not in have]
    if missing and table.stage == "(input)":
        raise InputError(
            path,
            f"lacks the column(s) {', '.join(missing)}",
            where=where,
            fix=f"msbench reads it as {table.what}",
        )
    if missing:
        raise InputError(
            path,
            f"is not {table.name} as msbench {table.stage} writes it: lacks {', '.join(missing)}",
            where=where,
            fix=f"write it again with `msbench {table.stage}`",
        )


def write_rows(
    table: Table[Any],
    path: str | Path,
    rows: Iterable[Mapping[str, Any]],
    columns: Sequence[str] | None = None,
    exact: bool = False,
) -> None:
    """Write a declared table: CSV or JSON Lines by the path's suffix, in the declared column
    order (``columns`` only for a table whose columns vary with its input, declared ``None``;
    a JSON Lines table declared ``None`` keeps each row's own keys). ``exact`` writes values as
    they are (floats unrounded: records passed through, input values as read)."""
    order = columns if columns is not None else table.columns
    if str(path).endswith(".csv"):
        if order is None:
            raise ValueError(f"{table.name}: a CSV table needs its columns")
        write_recorded(path, csv_text(rows, order, exact))
    elif exact:
        keys = order
        write_recorded(
            path,
            dumps_jsonl(row if keys is None else {k: row.get(k) for k in keys} for row in rows),
        )
    else:
        write_recorded(path, jsonl_text(rows, order))


def markdown_table(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """A markdown table of ``columns``; missing values are empty cells, ``|`` is escaped.

    >>> print(markdown_table([{"a": 1, "b|c": None}], ["a", "b|c"]), end="")
    | a | b\\|c |
    |---|---|
    | 1 |  |
    """

    def text(value: Any) -> str:
        return "" if value is None else str(value).replace("|", "\\|")

    lines = ["| " + " | ".join(map(text, columns)) + " |", "|" + "---|" * len(columns)]
    for row in rows:
        lines.append("| " + " | ".join(text(row.get(c)) for c in columns) + " |")
    return "\n".join(lines) + "\n"
