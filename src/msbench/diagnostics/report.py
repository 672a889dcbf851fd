"""All systems together: ``condition_results.json`` in the release's layout, and Table 2.

``condition_results.json`` follows the official release file: ``systems``
(id, name), then per analysis (``overlap``, ``similarity``, ``acoustic``,
``turn``, ``speaker``) a ``title``, ``description``, ``control`` and
``series``, each series with ``label``, ``unit``, and per system (in the
``systems`` order) ``values`` and ``significant``. msbench adds, per series,
``intervals`` ([low, high] or null) and ``headline`` (whether it is a Table 2
column), per analysis ``not_evaluable`` (system id -> reason), and a top-level
``bootstrap``. Values are rounded as in the release: pp to 2 decimals, rho to
3, % to 1.

Table 2 (``table2.md``, ``table2.csv``): systems x headline series, a star
marking significance (the 95 % cluster-bootstrap interval excludes 0);
``table2_intervals.md``: every series with its interval.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

DECIMALS = {"pp": 2, "rho": 3, "%": 1}


def _round(value: float | None, unit: str) -> float | None:
    return None if value is None else round(value, DECIMALS.get(unit, 3))


def combine(systems: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The ``condition_results.json`` of per-system ``conditions.json`` objects."""
    out: dict[str, Any] = {
        "systems": [{"id": s["system_id"], "name": s["system"]} for s in systems],
        "bootstrap": systems[0]["bootstrap"] if systems else None,
    }
    if not systems:
        return out
    for name, first in systems[0]["analyses"].items():
        series = []
        for k, template in enumerate(first["series"]):
            unit = template["unit"]
            entries = [s["analyses"][name]["series"][k] for s in systems]
            series.append(
                {
                    "label": template["label"],
                    "unit": unit,
                    "values": [_round(e["value"], unit) for e in entries],
                    "significant": [e["significant"] for e in entries],
                    "intervals": [
                        None if e["interval"] is None else [_round(v, unit) for v in e["interval"]]
                        for e in entries
                    ],
                    "headline": template["headline"],
                }
            )
        out[name] = {
            "title": first["title"],
            "description": first["description"],
            "control": first["control"],
            "series": series,
            "not_evaluable": {
                s["system_id"]: s["analyses"][name]["not_evaluable"]
                for s in systems
                if s["analyses"][name]["not_evaluable"]
            },
        }
    return out


def table2_rows(systems: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per system, analysis and series (the CSV)."""
    rows = []
    for system in systems:
        for name, analysis in system["analyses"].items():
            for series in analysis["series"]:
                low, high = series["interval"] or (None, None)
                rows.append(
                    {
                        "system_id": system["system_id"],
                        "system": system["system"],
                        "analysis": name,
                        "label": series["label"],
                        "unit": series["unit"],
                        "value": series["value"],
                        "low": low,
                        "high": high,
                        "significant": series["significant"],
                        "headline": series["headline"],
                        "defined_resamples": series["defined_resamples"],
                    }
                )
    return rows


def cell(value: float | None, unit: str, significant: bool | None) -> str:
    """``27.30*`` style: the rounded value and a star when significant; ``n/a`` when undefined.

    >>> cell(27.3, "pp", True), cell(0.3112, "rho", False), cell(None, "rho", None)
    ('27.30*', '0.311', 'n/a')
    """
    if value is None:
        return "n/a"
    return f"{value:.{DECIMALS.get(unit, 3)}f}" + ("*" if significant else "")


def table2_markdown(systems: Sequence[dict[str, Any]], intervals: bool = False) -> str:
    """Table 2 (headline series) or, with ``intervals``, every series with its interval."""
    from msbench.tables import markdown_table

    columns: list[str] = []
    rows: list[dict[str, Any]] = []
    for system in systems:
        row: dict[str, Any] = {"system": system["system"]}
        for name, analysis in system["analyses"].items():
            for series in analysis["series"]:
                if not (intervals or series["headline"]):
                    continue
                column = f"{name}: {series['label']} ({series['unit']})"
                if column not in columns:
                    columns.append(column)
                text = cell(series["value"], series["unit"], series["significant"])
                if intervals and series["interval"]:
                    low, high = (cell(v, series["unit"], None) for v in series["interval"])
                    text += f" [{low}, {high}]"
                row[column] = text
        rows.append(row)
    if intervals:  # long: one line per series, one column per system
        return _transposed(rows, columns)
    return markdown_table(rows, ["system", *columns])


def _transposed(rows: list[dict[str, Any]], columns: list[str]) -> str:
    from msbench.tables import markdown_table

    names = [r["system"] for r in rows]
    lines = [{"series": c, **{r["system"]: r.get(c, "") for r in rows}} for c in columns]
    return markdown_table(lines, ["series", *names])
