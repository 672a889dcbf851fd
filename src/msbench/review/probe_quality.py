"""The probe set's quality page (``probes.html``): what text-only readers score, what was dropped.

A static page (no script), from the probe set's ``probe_summary.json``: per family
and task, the items, chance, and each text-only reader's mean accuracy with
its 95 % interval (Wilson), the reader above chance marked; then every draft
left out, by family and rule (repeats included). A reviewer reads here whether
the items can be answered without listening.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from msbench.review.pages import page_head


def probe_quality_page(summary: Mapping[str, Any]) -> str:
    """The page's HTML."""
    accuracy = summary.get("text_only_accuracy", {})
    rows = []
    for task, row in sorted(accuracy.items()):
        intervals = row.get("interval_95", {})
        for reader in sorted(k for k in row if k not in ("items", "chance", "interval_95")):
            share = float(row[reader])
            low, high = intervals.get(reader, [0.0, 1.0])
            above = ' class="above"' if share > float(row["chance"]) + 1e-9 else ""
            rows.append(
                f"<tr{above}><td>{escape(task)}</td><td>{row['items']}</td>"
                f"<td>{row['chance']:.3f}</td><td>{escape(reader)}</td>"
                f"<td>{share:.3f}</td><td>[{low:.3f}, {high:.3f}]</td></tr>"
            )
    dropped = "".join(
        f"<tr><td>{escape(reason)}</td><td>{count}</td></tr>"
        for reason, count in sorted(summary.get("dropped", {}).items())
    )
    return (
        page_head("Probe quality - msbench review", "")
        + '<body data-page="probes">\n<header><h1>Probe quality</h1>\n'
        + f"<p>{summary.get('items', 0)} items from {summary.get('clips', 0)} clips; "
        + "text-only policy: "
        + escape(str(summary.get("text_only_policy", "")))
        + ' (<a href="index.html">back to the recordings</a>)</p></header>\n<main>\n'
        + "<h2>Text-only readers, per family and task</h2>\n"
        + '<table id="readers"><thead><tr><th>task</th><th>items</th><th>chance</th>'
        + "<th>reader</th><th>accuracy</th><th>95 % interval</th></tr></thead><tbody>\n"
        + "\n".join(rows)
        + "\n</tbody></table>\n<h2>Drafts left out</h2>\n"
        + '<table id="dropped"><thead><tr><th>family: rule</th><th>drafts</th></tr></thead>'
        + f"<tbody>{dropped}</tbody></table>\n</main>\n</body>\n</html>\n"
    )
