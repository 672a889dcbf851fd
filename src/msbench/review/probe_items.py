"""The probe set as a person reads it (``probes.html``): every item, its clip, and how text-only
readers fare, per family, in one compact figure.

Each item shows its family, task, overlap label, question and options, its clip (the probe
set's WAV re-encoded in the site's audio format), the true answer behind a "show the answer"
toggle (a ``<details>`` element: hidden until asked, no script needed), and each text-only
reader's chance of answering it (``text_only`` of items.jsonl: the share of its choices that is
right). Filters by family and task are the site's script (``assets/review.js``). The figure:
per family, the best text-only reader's mean accuracy over the family's items against chance
(mean of ``1 / options``): a bar past its chance tick is a family text alone partly answers.
The per-task table of every reader and the drafts left out stay on ``probe_quality.html``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from msbench.review.pages import page_head

BAR_WIDTH, ROW = 320, 22


def read_items(probes_dir: Path) -> list[dict[str, Any]]:
    """The probe set's items.jsonl (one JSON object a line)."""
    path = probes_dir / "items.jsonl"
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def family_accuracy(items: Sequence[Mapping[str, Any]]) -> dict[str, tuple[int, float, str, float]]:
    """Per family: (items, chance, best reader, its mean accuracy over the family's items).

    >>> family_accuracy([{"subtaxonomy": "VL", "options": ["a", "b"], "text_only": {"r": 1.0}},
    ...                  {"subtaxonomy": "VL", "options": ["a", "b"], "text_only": {"r": 0.0}}])
    {'VL': (2, 0.5, 'r', 0.5)}
    """
    by_family: dict[str, list[Mapping[str, Any]]] = {}
    for item in items:
        by_family.setdefault(str(item["subtaxonomy"]), []).append(item)
    out = {}
    for family, members in sorted(by_family.items()):
        chance = sum(1 / len(m["options"]) for m in members) / len(members)
        readers = sorted({r for m in members for r in m.get("text_only", {})})
        means = {
            r: sum(float(m.get("text_only", {}).get(r, 0.0)) for m in members) / len(members)
            for r in readers
        }
        best = max(readers, key=lambda r: (means[r], r), default="")
        out[family] = (len(members), round(chance, 6), best, round(means.get(best, 0.0), 6))
    return out


def accuracy_figure(accuracy: Mapping[str, tuple[int, float, str, float]]) -> str:
    """An inline SVG: one bar per family (best text-only reader) with a tick at chance."""
    height = ROW * len(accuracy) + 24
    parts = [
        f'<svg id="text-only-figure" xmlns="http://www.w3.org/2000/svg" width="{BAR_WIDTH + 330}" '
        f'height="{height}" role="img" aria-label="text-only accuracy per family">'
    ]
    for k, (family, (count, chance, reader, share)) in enumerate(accuracy.items()):
        y = 4 + k * ROW
        parts.append(
            f'<text x="0" y="{y + 14}">{escape(family)} ({count})</text>'
            f'<rect class="bar" x="80" y="{y + 3}" width="{share * BAR_WIDTH:.1f}" height="14"/>'
            f'<line class="chance" x1="{80 + chance * BAR_WIDTH:.1f}" x2="{80 + chance * BAR_WIDTH:.1f}" '
            f'y1="{y}" y2="{y + 20}"/>'
            f'<text x="{90 + BAR_WIDTH}" y="{y + 14}">{share:.2f} ({escape(reader)}), chance '
            f"{chance:.2f}</text>"
        )
    parts.append(
        f'<text x="80" y="{height - 4}">0</text><text x="{76 + BAR_WIDTH}" '
        f'y="{height - 4}">1</text></svg>'
    )
    return "".join(parts)


def item_html(item: Mapping[str, Any], audio: str | None) -> str:
    options = "".join(f"<li>{escape(str(o))}</li>" for o in item["options"])
    answer = int(item["answer_idx"])
    readers = ", ".join(
        f"{escape(r)} {float(v):.2f}" for r, v in sorted(item.get("text_only", {}).items())
    )
    clip = (
        f'<audio controls preload="none" src="{escape(audio)}"></audio>'
        if audio
        else '<p class="note">no clip on this site</p>'
    )
    return (
        f'<article class="item" id="{escape(str(item["question_id"]))}" '
        f'data-family="{escape(str(item["subtaxonomy"]))}" data-task="{escape(str(item["task_name"]))}">'
        f"<h3>{escape(str(item['question_id']))}</h3>"
        f'<p class="facts">{escape(str(item["subtaxonomy"]))} · {escape(str(item["task_name"]))} · '
        f"{escape(str(item.get('overlap', '')))} · {escape(str(item.get('recording_id', '')))} "
        f"{float(item.get('clip_start', 0)):.1f}–{float(item.get('clip_end', 0)):.1f} s</p>"
        f'{clip}<p class="question">{escape(str(item["question"]))}</p><ol type="A">{options}</ol>'
        f'<details><summary>Show the answer</summary><p class="answer">{chr(65 + answer)}: '
        f"{escape(str(item['options'][answer]))}</p></details>"
        f'<p class="readers">Text-only readers (chance of the right answer): {readers}</p></article>\n'
    )


def probe_items_page(
    summary: Mapping[str, Any], items: Sequence[Mapping[str, Any]], clips: Mapping[str, str]
) -> str:
    """The page's HTML; ``clips``: each question id's clip path in the site."""
    missing = [
        f
        for f in ("VL", "VC", "VCA", "VCD", "CVA", "TR", "QR", "IR")
        if f not in {str(i["subtaxonomy"]) for i in items}
    ]
    note = (
        f'<p class="note" id="missing-families">No item of {", ".join(missing)}: '
        f"see probe_summary.json's dropped and not-generated reasons.</p>"
        if missing
        else ""
    )
    return (
        page_head("Probes - msbench review", "")
        + '<body data-page="probes">\n<nav><a href="index.html">&larr; all recordings</a> · '
        + '<a href="probe_quality.html">text-only readers per task, drafts left out</a></nav>\n'
        + f"<header><h1>Probe items</h1><p>{len(items)} items from {summary.get('clips', 0)} "
        + "clips</p></header>\n<main>\n<h2>Text-only accuracy per family</h2>\n"
        + accuracy_figure(family_accuracy(items))
        + note
        + '\n<p id="probe-controls"></p>\n<section id="items">\n'
        + "".join(item_html(i, clips.get(str(i["question_id"]))) for i in items)
        + '</section>\n</main>\n<script src="assets/review.js" charset="utf-8"></script>\n'
        + "</body>\n</html>\n"
    )
