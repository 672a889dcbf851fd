"""The site's results page (``results.html``): the leaderboard, the comparison, Table 2 and the
by-condition tables, each row linking to the recordings behind it.

A static page (no script) from the evaluation's own tables, verbatim numbers:
``leaderboard_views.csv`` (each view with its 95 % cluster-bootstrap intervals and rank
groups), ``compare/pairs.csv`` (B - A with its interval and Holm-adjusted test, overall and per
condition), ``table2.csv`` (MS-Bench's Table 2 with intervals) and ``by_condition.csv``, and
their figures. A link ``index.html#system=<id>&<axis>=<range>`` opens the index with that
system's scores, filtered to the recordings of that range.
"""

from __future__ import annotations

import shutil
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from msbench import catalog
from msbench.metrics import COMPARED
from msbench.review.pages import page_head

FIGURES = ("by_condition.png", "conditions.png", "error_decomposition.png", "compare/compare.png")
#: The compared metrics (msbench.metrics), each with its interval in the leaderboard's views.
LEADERBOARD_METRICS = tuple(m.name for m in COMPARED)
CONDITION_METRICS = ("units", "excluded", *LEADERBOARD_METRICS)


def _rows(table: Any, path: Path) -> list[dict[str, str]]:
    """A declared table's rows with every cell as the CSV writes it (None: empty); [] if absent."""
    from msbench.tables import read_rows

    if not path.is_file():
        return []
    return [{k: cell(v) for k, v in row.items()} for row in read_rows(table, path)]


def cell(value: Any) -> str:
    """A parsed cell back as text: numbers as Python writes them, booleans lower case.

    >>> cell(41.26), cell(None), cell(True), cell(3)
    ('41.26', '', 'true', '3')
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def index_link(system: str, axis: str | None = None, value: str | None = None) -> str:
    """The index opened with ``system``'s scores (and one condition range).

    >>> index_link("baseline", "P", "P2")
    'index.html#system=baseline&P=P2'
    """
    target = f"index.html#system={quote(system)}"
    return target + (f"&{quote(axis)}={quote(value)}" if axis and value else "")


def fixed(text: str) -> str:
    """A rate, difference or interval end as every page shows it: two decimals (the tables
    keep full precision); counts and empty cells as they are.

    >>> fixed("64.44444"), fixed("7"), fixed("")
    ('64.44', '7', '')
    """
    if not text or "." not in text:
        return text
    try:
        return f"{float(text):.2f}"
    except ValueError:
        return text


def _p(text: str) -> str:
    from msbench.comparison.verdicts import format_p

    return format_p(float(text)) if text else "-"


def _interval(row: Mapping[str, str], key: str) -> str:
    value, low, high = (fixed(row.get(k, "")) for k in (key, f"{key}_low", f"{key}_high"))
    return escape(value + (f" [{low}, {high}]" if low or high else ""))


def _table(table_id: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "\n".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return (
        f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>\n{body}\n</tbody></table>\n'
    )


def _system(system_id: str, name: str | None = None) -> str:
    return f'<a href="{escape(index_link(system_id))}">{escape(name or system_id)}</a>'


def leaderboard(rows: Sequence[Mapping[str, str]]) -> str:
    header = ["view", "system", "rank group", "units", "excluded", *LEADERBOARD_METRICS]
    cells = [
        [
            escape(r["view"]),
            _system(r["system_id"], r.get("system")),
            escape(r["rank_group"]),
            escape(r["units_scored"]),
            escape(r["excluded"]),
            *(_interval(r, m) for m in LEADERBOARD_METRICS),
        ]
        for r in rows
    ]
    return _table("leaderboard", header, cells)


def comparison(rows: Sequence[Mapping[str, str]], axes: Mapping[str, Sequence[str]]) -> str:
    axis_of = {label: axis for axis, labels in axes.items() for label in labels}
    header = [
        "A",
        "B",
        "metric",
        "group",
        "units",
        "A rate",
        "B rate",
        "B - A [interval]",
        "p(B better / tie / worse)",
        "p (adjusted)",
        "verdict",
    ]
    cells = []
    for r in rows:
        group = r["group"]
        target = index_link(r["system_b"], axis_of.get(group), group)
        difference = _interval({"d": r["difference"], "d_low": r["low"], "d_high": r["high"]}, "d")
        shares = " / ".join(fixed(r[k]) if r[k] else "-" for k in ("p_better", "p_tie", "p_worse"))
        cells.append(
            [
                _system(r["system_a"]),
                _system(r["system_b"]),
                escape(r["metric"]),
                f'<a href="{escape(target)}">{escape(group)}</a>',
                escape(r["units"]),
                escape(fixed(r["rate_a"])),
                escape(fixed(r["rate_b"])),
                difference,
                escape(shares),
                escape(_p(r["p_adjusted"])),
                escape(r["verdict"]),
            ]
        )
    return _table("comparison", header, cells)


def table2(rows: Sequence[Mapping[str, str]]) -> str:
    header = ["system", "analysis", "series", "unit", "value [95 % interval]", "significant"]
    cells = [
        [
            _system(r["system_id"], r.get("system")),
            escape(r["analysis"]),
            escape(r["label"]),
            escape(r["unit"]),
            _interval({"v": r["value"], "v_low": r["low"], "v_high": r["high"]}, "v"),
            escape(r["significant"]),
        ]
        for r in rows
    ]
    return _table("table2", header, cells)


def by_condition(rows: Sequence[Mapping[str, str]]) -> str:
    header = ["system", "axis", "range", *CONDITION_METRICS]
    cells = [
        [
            _system(r["system"]),
            escape(r["group"]),
            f'<a href="{escape(index_link(r["system"], r["group"], r["value"]))}">{escape(r["value"])}</a>',
            *(escape(fixed(r.get(m, ""))) for m in CONDITION_METRICS),
        ]
        for r in rows
    ]
    return _table("by-condition", header, cells)


def results_page(evaluation: Path, axes: Mapping[str, Sequence[str]], site: Path) -> str:
    """The page's HTML; the figures found in ``evaluation`` are copied to ``site/figures/results``."""
    figures = []
    for name in FIGURES:
        if (evaluation / name).is_file():
            target = site / "figures" / "results" / name.replace("/", "_")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(evaluation / name, target)
            figures.append(
                f'<img src="figures/results/{escape(target.name)}" alt="{escape(name)}">'
            )
    sections = [
        (
            "Leaderboard",
            "Rates in percent with their 95 % intervals (the jackknife over recordings, "
            "Student's t); systems sharing a rank group letter in a view are not told apart "
            "there.",
            leaderboard(_rows(catalog.LEADERBOARD_VIEWS, evaluation / "leaderboard_views.csv")),
        ),
        (
            "Which system is better",
            "B - A in percentage points on the units both systems scored (negative: B makes "
            "fewer errors), jackknife-t interval over recordings, permutation test with the "
            "step-down max-T over the pairs; one verdict (the primary metric over the "
            "benchmark), every other row exploratory.",
            comparison(_rows(catalog.COMPARE_PAIRS, evaluation / "compare/pairs.csv"), axes),
        ),
        (
            "Table 2",
            "MS-Bench's five analyses, each with its 95 % interval.",
            table2(_rows(catalog.TABLE2, evaluation / "table2.csv")),
        ),
        (
            "By condition",
            "Ratios of sums over the recordings of each range; a range opens its recordings.",
            by_condition(_rows(catalog.BY_CONDITION, evaluation / "by_condition.csv")),
        ),
    ]
    body = "".join(
        f'<section><h2>{escape(title)}</h2>\n<p class="note">{escape(note)}</p>\n{table}</section>\n'
        for title, note, table in sections
    )
    return (
        page_head("Results - msbench review", "")
        + '<body data-page="results">\n<nav><a href="index.html">&larr; all recordings</a></nav>\n'
        + "<header><h1>Results</h1></header>\n<main>\n"
        + body
        + f'<section id="result-figures"><h2>Figures</h2>{"".join(figures)}</section>\n'
        + "</main>\n</body>\n</html>\n"
    )
