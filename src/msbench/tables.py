"""Every table we write goes through here: fixed column order, fixed number format.

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
from typing import Any, TypeVar, cast

from msbench.columns import parse_cell
from msbench.errors import InputError
from msbench.textio import json_line, read_checked, read_jsonl, write_recorded

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


def csv_text(rows: Iterable[dict[str, Any]], columns: Sequence[str], exact: bool = False) -> str:
    """CSV with the given columns; ``exact`` keeps floats unrounded (values passed through)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow([_cell(row.get(column), exact) for column in columns])
    return buffer.getvalue()


def write_csv(
    path: str | Path, rows: Iterable[dict[str, Any]], columns: Sequence[str], exact: bool = False
) -> None:
    write_recorded(path, csv_text(rows, columns, exact))


def jsonl_text(rows: Iterable[dict[str, Any]], columns: Sequence[str] | None = None) -> str:
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


def write_table_jsonl(
    path: str | Path, rows: Iterable[dict[str, Any]], columns: Sequence[str] | None = None
) -> None:
    write_recorded(path, jsonl_text(rows, columns))


def read_table(path: str | Path) -> list[dict[str, Any]]:
    """Read a CSV or JSON Lines table back into dicts.

    CSV cells are parsed by their column's declared type
    (:data:`msbench.columns.COLUMN_TYPES`); a cell that does not parse names
    the file, line and column.
    """
    name = str(path)
    if name.endswith((".jsonl", ".jsonl.gz")):
        return list(read_jsonl(path))
    if name.endswith(".csv"):
        reader = csv.DictReader(io.StringIO(read_checked(path), newline=""))
        rows = []
        for number, row in enumerate(reader, start=2):
            try:
                rows.append({k: parse_cell(k, v) for k, v in row.items()})
            except ValueError as error:
                raise InputError(path, str(error), where=f"line {number}") from error
        return rows
    raise InputError(path, "unknown table format", fix="use .csv or .jsonl")


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


def read_rows(path: str | Path, row_type: type[R]) -> list[R]:
    """A manifest's rows as its typed row (:mod:`msbench.rows`), cells parsed by that table's types.

    Columns the row type does not declare keep the declared type of their
    name (:data:`msbench.columns.COLUMN_TYPES`); a cell that does not parse
    names the file, line and column; a declared column the file lacks is an error.
    """
    from msbench.rows import types_of

    kinds = types_of(row_type)
    name = str(path)
    if name.endswith((".jsonl", ".jsonl.gz")):
        return [cast(R, row) for row in read_jsonl(path)]
    reader = csv.DictReader(io.StringIO(read_checked(path), newline=""))
    required = [c for c in kinds if c in getattr(row_type, "__required_keys__", ())]
    missing = [c for c in required if c not in (reader.fieldnames or ())]
    if missing:
        raise InputError(path, f"lacks the column(s) {', '.join(missing)}", where="line 1")
    rows = []
    for number, row in enumerate(reader, start=2):
        try:
            rows.append(cast(R, {k: parse_cell(k, v, kinds.get(k)) for k, v in row.items()}))
        except ValueError as error:
            raise InputError(path, str(error), where=f"line {number}") from error
    return rows


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
