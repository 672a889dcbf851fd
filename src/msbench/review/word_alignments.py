"""Each scored unit's word view in the site: ``alignments/<system>/<unit>.json`` and ``.js``.

The ``.json`` is the evaluation's file (``results/evaluation/<system>/alignments/<unit>.json``,
:mod:`msbench.scoring.word_view` documents its keys), copied byte for byte, for a reader or a
test. The ``.js`` sets ``window.MSBENCH_ALIGNMENTS["<system>/<unit_id>"]`` to the same
object: a page opened from the file system may load a script, not fetch a file, so a recording
page loads a unit's words only when the reader opens that unit (a 160-minute unit's view is
several MB).
"""

from __future__ import annotations

import json
from pathlib import Path

from msbench.review.system_view import SystemView


def copy_word_views(site: Path, views: list[SystemView]) -> int:
    """Copy every system's word views into ``site``; the number of files copied."""
    copied = 0
    for view in views:
        if view.alignments is None:
            continue
        folder = site / "alignments" / view.system_id
        folder.mkdir(parents=True)
        for path in sorted(p for p in view.alignments.glob("*.json") if not p.name.startswith(".")):
            text = path.read_text(encoding="utf-8")
            unit_id = json.loads(text)["unit_id"]
            key = json.dumps(f"{view.system_id}/{unit_id}", ensure_ascii=False)
            (folder / path.name).write_text(text, encoding="utf-8")
            script = (
                "window.MSBENCH_ALIGNMENTS = window.MSBENCH_ALIGNMENTS || {};\n"
                f"window.MSBENCH_ALIGNMENTS[{key}] = {text.strip()};\n"
            )
            (folder / f"{path.stem}.js").write_text(script, encoding="utf-8")
            copied += 1
    return copied
