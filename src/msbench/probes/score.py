"""Score model answers on a probe set: accuracy per family, task, overlap label, condition range; Ver-A.

**Answers** are read from JSON Lines (one object per item with ``question_id``
and the model's reply under ``answer``, ``response``, ``prediction``,
``output`` or ``model_output``), a JSON object ``{question_id: reply}``, or a
JSON list of such objects. A reply is a letter (``"B"``, ``"(B)"``, ``"Answer:
B"``), HEAR's ``{"Answer": "B"}`` (as an object or as text), or a 0-based index.
**Denominators**: every item of the probe set; an item with no answer or an
unreadable one counts as wrong (both are counted in the report).
**Ver-A** (HEAR's counterfactual pairs ``<id>_original`` / ``<id>_hallucinated``):
the share of pairs with both items right.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from msbench.errors import InputError
from msbench.textio import read_text

REPLY_KEYS = ("answer", "Answer", "response", "prediction", "output", "model_output")
PAIR_SUFFIXES = ("_original", "_hallucinated")


def parse_reply(reply: Any, options: int = 5) -> int | None:
    """The chosen option's index, or None.

    >>> [parse_reply(r) for r in ("B", "(c)", "Answer: D", '{"Answer": "A"}', {"Answer": "E"}, 1, "maybe")]
    [1, 2, 3, 0, 4, 1, None]
    """
    if isinstance(reply, Mapping):
        reply = next((reply[k] for k in REPLY_KEYS if k in reply), None)
    if isinstance(reply, bool) or reply is None:
        return None
    if isinstance(reply, int):
        return reply if 0 <= reply < options else None
    text = str(reply).strip()
    if text.startswith("{"):
        try:
            return parse_reply(json.loads(text), options)
        except json.JSONDecodeError:
            pass
    letters = "ABCDE"[:options]
    found = re.fullmatch(rf"\(?([{letters}])\)?[.)]?", text, re.IGNORECASE) or re.search(
        rf"\banswer\W*\(?([{letters}])\b", text, re.IGNORECASE
    )
    return "ABCDE".index(found.group(1).upper()) if found else None


def read_answers(path: Path) -> dict[str, Any]:
    """``{question_id: reply}`` from any of the module's formats."""
    text = read_text(path).strip()
    rows: Iterable[Any]
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError:
        try:
            loaded = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError as error:
            raise InputError(
                path, f"not JSON or JSON Lines ({error})", where=f"line {error.lineno}"
            ) from error
    if isinstance(loaded, Mapping) and "question_id" not in loaded:
        return dict(loaded)
    rows = [loaded] if isinstance(loaded, Mapping) else loaded
    answers = {}
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, Mapping) or "question_id" not in row:
            raise InputError(path, "an answer without question_id", where=f"entry {number}",
                             fix='write {"question_id": ..., "answer": "B"}')  # fmt: skip
        answers[str(row["question_id"])] = row
    return answers


def _rate(correct: int, total: int) -> dict[str, Any]:
    return {
        "items": total,
        "correct": correct,
        "accuracy": round(correct / total, 6) if total else None,
    }


def _group(results: list[tuple[Mapping[str, Any], bool]], key: Any) -> dict[str, Any]:
    groups: dict[str, list[bool]] = {}
    for item, right in results:
        value = key(item)
        if value is not None:
            groups.setdefault(str(value), []).append(right)
    return {name: _rate(sum(v), len(v)) for name, v in sorted(groups.items())}


def ver_a(results: list[tuple[Mapping[str, Any], bool]]) -> dict[str, Any]:
    pairs: dict[str, dict[str, bool]] = {}
    for item, right in results:
        qid = str(item["question_id"])
        for suffix in PAIR_SUFFIXES:
            if qid.endswith(suffix):
                pairs.setdefault(qid.removesuffix(suffix), {})[suffix] = right
    complete = [p for p in pairs.values() if len(p) == 2]
    return _rate(sum(all(p.values()) for p in complete), len(complete))


def score_answers(items: list[Mapping[str, Any]], answers: Mapping[str, Any]) -> dict[str, Any]:
    results, unreadable = [], 0
    for item in items:
        reply = answers.get(str(item["question_id"]))
        chosen = parse_reply(reply, len(item["options"])) if reply is not None else None
        unreadable += reply is not None and chosen is None
        results.append((item, chosen == item["answer_idx"]))
    report = {
        **_rate(sum(r for _, r in results), len(results)),
        "missing": sum(str(i["question_id"]) not in answers for i in items),
        "unreadable": unreadable,
        "by_family": _group(results, lambda i: i["subtaxonomy"]),
        "by_taxonomy": _group(results, lambda i: i["taxonomy"]),
        "by_task": _group(results, lambda i: i["task_name"]),
        "by_overlap": _group(results, lambda i: "overlap" if i["overlap"] else "non-overlap"),
        "by_condition": {
            axis: _group(results, lambda i, a=axis: (i.get("conditions") or {}).get(a))
            for axis in "POSTN"
        },
        "ver_a": ver_a(results),
    }
    return report
