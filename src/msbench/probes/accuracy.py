"""Score model answers on a probe set: accuracy per family, task, overlap label, condition range; Ver-A.

**Answers** may be HEAR's own results file (what its ``inference.py`` writes:
a JSON list of records keyed by ``id``, the reply under ``response``, a
failed call marked by ``error``), JSON Lines (one object per item with
``question_id`` and the reply under ``answer``, ``response``, ``prediction``,
``output`` or ``model_output``), a JSON object ``{question_id: reply}``, or a
JSON list of such objects. Replies are read by HEAR's rules
(:mod:`msbench.probes.replies`: ``{"Answer": "B"}``, ``"The answer is B"``,
``Voice B``, ``(B)``, the option's own text, ...); msbench also takes a bare
integer as a 0-based index. The report counts, per rule, how replies were
read, and shows the ones no rule reads.

**Denominators**: every item of the probe set; an item with no answer, a
failed call or an unreadable reply counts as wrong (each is counted).
**Ver-A** is HEAR's (``hear/eval_hear_vera.py``): a counterfactual pair
(``<base>_original`` / ``<base>_hallucinated`` of the ``Reasoning`` axis) is one
unit, right when both members are; ``ver_a`` = (single items right + pairs
right) / (single items + pairs), items of an incomplete pair left out (named);
``ver_a_pairs_only`` is the share of right pairs, beside it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from msbench.errors import InputError
from msbench.probes.hear import category
from msbench.probes.replies import LETTERS, reply_text, rule_of
from msbench.textio import read_text, split_lines

REPLY_KEYS = ("answer", "Answer", "response", "prediction", "output", "model_output")
PAIR_SUFFIXES = ("_original", "_hallucinated")


def read_answers(path: Path) -> dict[str, Any]:
    """``{question_id: record or reply}`` from any of the module's formats."""
    text = read_text(path).strip()
    rows: Iterable[Any]
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError:
        try:
            loaded = [json.loads(line) for line in split_lines(text) if line.strip()]
        except json.JSONDecodeError as error:
            raise InputError(
                path, f"not JSON or JSON Lines ({error})", where=f"line {error.lineno}"
            ) from error
    if isinstance(loaded, Mapping) and "question_id" not in loaded and "id" not in loaded:
        return dict(loaded)
    rows = [loaded] if isinstance(loaded, Mapping) else loaded
    answers = {}
    for number, row in enumerate(rows, start=1):
        key = "question_id" if isinstance(row, Mapping) and "question_id" in row else "id"
        if not isinstance(row, Mapping) or key not in row:
            raise InputError(
                path,
                "an answer without question_id (or HEAR's id)",
                where=f"entry {number}",
                fix='write {"question_id": ..., "answer": "B"}',
            )
        question = str(row[key])
        if question in answers:
            first = next(n for n, r in enumerate(rows, start=1) if str(r.get(key)) == question)
            raise InputError(
                path,
                f"question {question!r} is answered twice (entries {first} and {number}): "
                "which one counts is not for msbench to guess",
                where=f"entry {number}",
                fix="keep one answer per question",
            )
        answers[question] = row
    return answers


def chosen_letter(record: Any, options: list[str]) -> tuple[str, str]:
    """``(letter or "", how it was read)`` of one item's answer record or bare reply."""
    if isinstance(record, Mapping) and ("question_id" in record or "id" in record):
        if "error" in record:
            return "", "failed call (error)"
        reply = next((record[k] for k in REPLY_KEYS if k in record), None)
    else:
        reply = record
    if isinstance(reply, int) and not isinstance(reply, bool):
        return (LETTERS[reply], "index") if 0 <= reply < len(options) else ("", "unparsed")
    found, rule = rule_of(reply_text(reply), options)
    return (found, rule) if found and LETTERS.index(found) < len(options) else ("", "unparsed")


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
    """HEAR's Ver-A, and the pairs-only share beside it (see the module docstring)."""
    singles: list[bool] = []
    pairs: dict[str, dict[str, bool]] = {}
    for item, right in results:
        qid = str(item["question_id"])
        base = next((qid.removesuffix(s) for s in PAIR_SUFFIXES if qid.endswith(s)), None)
        if item.get("taxonomy") == "Reasoning" and base:
            pairs.setdefault(base, {})[qid[len(base) :]] = right
        else:
            singles.append(right)
    complete = {b: p for b, p in pairs.items() if len(p) == 2}
    pairs_right = sum(all(p.values()) for p in complete.values())
    units = len(singles) + len(complete)
    return {
        "ver_a": round((sum(singles) + pairs_right) / units, 6) if units else None,
        "units": units,
        "single_items": len(singles),
        "single_items_correct": sum(singles),
        "pairs": len(complete),
        "pairs_correct": pairs_right,
        "ver_a_pairs_only": round(pairs_right / len(complete), 6) if complete else None,
        "incomplete_pairs": sorted(set(pairs) - set(complete)),
    }


def score_answers(items: list[Mapping[str, Any]], answers: Mapping[str, Any]) -> dict[str, Any]:
    results: list[tuple[Mapping[str, Any], bool]] = []
    rules: Counter[str] = Counter()
    unread: list[dict[str, Any]] = []
    for item in items:
        record = answers.get(str(item["question_id"]))
        found, rule = (
            chosen_letter(record, item["options"]) if record is not None else ("", "missing")
        )
        rules[rule] += 1
        if rule == "unparsed" and len(unread) < 20:
            unread.append({"question_id": item["question_id"], "reply": str(record)[:200]})
        results.append((item, bool(found) and LETTERS.index(found) == item["answer_idx"]))
    return {
        **_rate(sum(r for _, r in results), len(results)),
        "missing": rules.pop("missing", 0),
        "unreadable": rules.get("unparsed", 0),
        "read_by": dict(sorted(rules.items())),
        "unreadable_replies": unread,
        "unknown_ids": sorted(set(answers) - {str(i["question_id"]) for i in items})[:20],
        "by_family": _group(results, lambda i: i["subtaxonomy"]),
        "by_taxonomy": _group(results, lambda i: i["taxonomy"]),
        "by_task": _group(results, lambda i: i["task_name"]),
        "by_category": _group(results, category),
        "by_overlap": _group(results, lambda i: i["overlap"]),
        "by_condition": {
            axis: _group(results, lambda i, a=axis: (i.get("conditions") or {}).get(a))
            for axis in "POSTN"
        },
        **ver_a(results),
    }
