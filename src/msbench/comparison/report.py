"""What a person reads of a comparison: compare.md, compare.json and compare.png, and the
leaderboard's views in leaderboard.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.comparison.metrics import METRICS
from msbench.tables import markdown_table

Row = Mapping[str, Any]


def interval_text(value: Any, low: Any, high: Any) -> str:
    """``12.5 [10.1, 14.9]``, or the value alone when there is no interval.

    >>> interval_text(1.5, -0.25, 3.0), interval_text(None, None, None)
    ('1.5 [-0.25, 3.0]', '')
    """
    if value is None:
        return ""
    return f"{value} [{low}, {high}]" if low is not None else str(value)


def views_markdown(
    views: Sequence[Row], note: str | None, confidence: float, tokenizer: str | None = None
) -> str:
    """leaderboard.md's second part: every view with intervals and rank groups."""
    names = list(METRICS)
    lines = [
        "",
        f"Words scored with the tokenizer {tokenizer} (msbench.scoring.tokenizer)."
        if tokenizer
        else "",
        "",
        f"Views (rates in percent, each with its {confidence:.0%} interval: the jackknife over "
        "recordings with Student's t; rank groups per view on the compare metric's paired "
        "tests, step-down max-T over the pairs: systems sharing a letter are not told apart). "
        "penalised charges each excluded or missing unit its empty hypothesis (100 % of its "
        "words, of its speech time); an output that inserts more than its reference holds "
        "scores above that, so a system's worst unit is shown beside its rates:",
        "",
    ]
    if note:
        lines[1:1] = [f"Note: {note}.", ""]
    shown = [
        {
            "view": r["view"],
            "system_id": r["system_id"],
            "rank_group": r["rank_group"],
            "units": r["units_scored"],
            "excluded": r["excluded"],
            **{
                m: interval_text(*(two_decimals(r[k]) for k in (m, f"{m}_low", f"{m}_high")))
                for m in names
            },
            "worst unit": _worst(r),
        }
        for r in views
    ]
    columns = ["view", "system_id", "rank_group", "units", "excluded", *names, "worst unit"]
    return "\n".join(lines) + "\n" + markdown_table(shown, columns)


def _worst(row: Row) -> str:
    """``cpwer 190.17 (u3)``: a view row's worst unit, as the page shows it."""
    if row.get("worst_unit") is None:
        return ""
    return (
        f"{row['worst_unit_metric']} {two_decimals(row['worst_unit_rate'])} ({row['worst_unit']})"
    )


def write_views(
    out_dir: Path, views: Sequence[Row], note: str | None, stated: Mapping[str, Any], release: str
) -> None:
    """leaderboard_views.csv and .json, and leaderboard.md: the release table, then the views."""
    from msbench.catalog import LEADERBOARD_VIEWS
    from msbench.tables import write_rows
    from msbench.textio import write_atomic, write_json

    write_rows(LEADERBOARD_VIEWS, out_dir / LEADERBOARD_VIEWS.name, views)
    write_json(
        out_dir / "leaderboard_views.json", {"settings": stated, "note": note, "views": views}
    )
    markdown = views_markdown(views, note, float(stated["confidence"]), stated.get("tokenizer"))
    write_atomic(out_dir / "leaderboard.md", release + markdown)


def _pair_rows(pairs: Sequence[Row], a: str, b: str, group: str | None) -> list[Row]:
    return [
        r
        for r in pairs
        if r["system_a"] == a and r["system_b"] == b and (group is None or r["group"] == group)
    ]


def two_decimals(value: Any) -> Any:
    """A rate, difference or interval end as every page and table shows it: two decimals
    (the CSV and JSON keep full precision).

    >>> two_decimals(64.44444), two_decimals(None), two_decimals(3)
    ('64.44', None, 3)
    """
    return f"{value:.2f}" if isinstance(value, float) else value


def _shown(row: Row) -> dict[str, Any]:
    """A row as compare.md shows it: rates and differences to 2 decimals, p-values as
    :func:`msbench.comparison.verdicts.format_p` writes them, the three probabilities."""
    from msbench.comparison.verdicts import format_p

    rates = ("rate_a", "rate_b", "value_a", "value_b")
    shown = {k: two_decimals(v) if k in rates else v for k, v in row.items()}
    ends = [two_decimals(row.get(k)) for k in ("difference", "low", "high")]
    shares = [row.get(k) for k in ("p_better", "p_tie", "p_worse")]
    return {
        **shown,
        "B - A [interval]": interval_text(*ends),
        "p better / tie / worse": " / ".join("-" if s is None else f"{s:.3f}" for s in shares),
        "p_value": format_p(row.get("p_value")),
        "p_adjusted": format_p(row.get("p_adjusted")),
        "significant": {True: "yes", False: "no", None: ""}[row.get("significant")],
    }


def compare_markdown(
    pairs: Sequence[Row], table2: Sequence[Row], settings: Mapping[str, Any], metric: str
) -> str:
    """compare.md: the conventions, then per pair: every metric overall, the compare metric per
    condition, and the Table 2 effects."""
    out = [
        "# Pairwise comparison",
        "",
        "B - A in percentage points on the units both systems scored; a negative difference "
        "means B makes fewer errors. One verdict: the primary metric over the benchmark; every "
        "other row is exploratory. " + "; ".join(f"{k}: {v}" for k, v in settings.items()) + ".",
        "",
    ]
    columns = ["metric", "role", "units", "recordings", "rate_a", "rate_b", "B - A [interval]"]
    columns += ["p better / tie / worse", "p_value", "p_adjusted", "verdict"]
    for a, b in sorted({(r["system_a"], r["system_b"]) for r in pairs}):
        out += [f"## {a} (A) against {b} (B)", "", "Overall:", ""]
        out.append(markdown_table(map(_shown, _pair_rows(pairs, a, b, "all")), columns))
        by_group = [r for r in _pair_rows(pairs, a, b, None) if r["metric"] == metric]
        out += [f"By condition, {METRICS[metric].label} (exploratory):", ""]
        out.append(markdown_table(map(_shown, by_group), ["group", *columns[1:]]))
        effects = [r for r in table2 if r["system_a"] == a and r["system_b"] == b]
        if effects:
            out += [
                "Table 2 effects (B's effect - A's effect; significant: the interval excludes 0):",
                "",
            ]
            cols = [
                "analysis",
                "label",
                "unit",
                "value_a",
                "value_b",
                "B - A [interval]",
                "significant",
            ]
            out.append(markdown_table(map(_shown, effects), cols))
    return "\n".join(out)


def plot_differences(pairs: Sequence[Row], metrics: Sequence[str], path: str | Path) -> None:
    """One panel per pair and metric: B - A per group with its interval (filled: significant)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    couples = sorted({(r["system_a"], r["system_b"]) for r in pairs})[:6] or [("", "")]
    groups = list(dict.fromkeys(r["group"] for r in pairs)) or ["all"]
    figure, grid = plt.subplots(
        len(couples),
        len(metrics),
        figsize=(3.6 * len(metrics), 0.9 + 0.22 * len(groups) * len(couples)),
        squeeze=False,
        layout="constrained",
    )
    for line, (a, b) in enumerate(couples):
        for column, metric in enumerate(metrics):
            panel = grid[line][column]
            chosen = {r["group"]: r for r in _pair_rows(pairs, a, b, None) if r["metric"] == metric}
            for y, group in enumerate(groups):
                r = chosen.get(group)
                if not r or r.get("difference") is None:
                    continue
                low, high = r.get("low"), r.get("high")
                if low is not None:
                    panel.plot([low, high], [y, y], color="0.4", linewidth=1.2)
                filled = "C3" if r.get("significant") else "white"
                panel.plot([r["difference"]], [y], "o", color="C3", markerfacecolor=filled)
            panel.axvline(0, color="0.7", linewidth=0.8)
            panel.set_yticks(range(len(groups)), groups, fontsize=6)
            panel.invert_yaxis()
            panel.set_title(f"{METRICS[metric].label}: {b} - {a} (pp)", fontsize=8)
    figure.suptitle(
        "B - A per group with its jackknife-t interval; filled: the primary test is significant",
        fontsize=8,
    )
    figure.savefig(path, dpi=100, metadata={"Software": "msbench", "Creation Time": None})
    plt.close(figure)
