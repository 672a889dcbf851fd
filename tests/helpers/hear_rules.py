"""HEAR's scoring rules, restated from its code (github.com/dwsmart32/HEAR, MIT, commit 990a26b):
``hear/eval_hear.py`` (reply parsing, accuracy by axis, sub-dimension, category) and
``hear/eval_hear_vera.py`` (Ver-A). Written here apart from msbench, step by step as
HEAR's functions read, so that a test can hold msbench's scorer to them.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from typing import Any

ABCDE = "ABCDE"


def _plain(text: Any) -> str:
    return re.sub(r"\s+", "", str(text).strip().strip("\"'").lower())


def _match_options(candidate: str, options: list[str]) -> str:
    if not candidate or not options:
        return ""
    c = _plain(candidate)
    opts = [_plain(o) for o in options]
    for k, o in enumerate(opts):
        if c and c == o:
            return ABCDE[k]
    inside = [k for k, o in enumerate(opts) if o and o in c]
    if len(inside) == 1:
        return ABCDE[inside[0]]
    around = [k for k, o in enumerate(opts) if c and c in o]
    if len(around) == 1:
        return ABCDE[around[0]]
    numbers = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", candidate)]
    if len(numbers) >= 2:
        same = [
            k for k, o in enumerate(options)
            if (n := [float(x) for x in re.findall(r"\d+(?:\.\d+)?", o)]) and sorted(n) == sorted(numbers)
        ]  # fmt: skip
        if len(same) == 1:
            return ABCDE[same[0]]
    return ""


def extract_letter(response: str, options: list[str] | None = None) -> str:
    if not response:
        return ""
    s = response.strip()
    m = re.search(r"[\"']?\s*Answer\s*[\"']?\s*:\s*[\"']?\s*([A-E])\b", s, re.IGNORECASE)
    if m:
        return m.group(1).upper()
    m = re.search(r"[\"']?\s*Answer\s*[\"']?\s*:\s*([0-4])\b", s)
    if m:
        return ABCDE[int(m.group(1))]
    try:
        found = re.search(r"\{[^{}]*\}", s)
        if found:
            for key, value in json.loads(found.group(0)).items():
                if key.lower() == "answer":
                    if isinstance(value, str) and value.strip().upper() in ABCDE:
                        return value.strip().upper()
                    if isinstance(value, int) and 0 <= value <= 4:
                        return ABCDE[value]
    except Exception:  # HEAR's own catch-all
        pass
    m = re.search(r"\(([A-E])\)", s)
    if m:
        return m.group(1).upper()
    if options:
        m = re.search(r"[\"']?Answer[\"']?\s*:\s*\"?([^\"}\n,]+?)\"?\s*[,}\n]", s, re.IGNORECASE)
        if m and (letter := _match_options(m.group(1), options)):
            return letter
        if letter := _match_options(s, options):
            return letter
    m = re.search(r"\b([A-E])\b", s)
    return m.group(1).upper() if m else ""


def _reply(record: dict[str, Any]) -> str:
    resp = record.get("response", "") or ""
    if isinstance(resp, dict):
        value = resp.get("prediction") or resp.get("Answer") or resp.get("answer") or ""
        resp = json.dumps(resp, ensure_ascii=False) if not value else f'{{"Answer": "{value}"}}'
    return resp


def evaluate(results: list[dict[str, Any]]) -> dict[str, Any]:
    """eval_hear.evaluate: overall accuracy and per axis, sub-dimension, category."""
    groups: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    correct = total = 0
    for record in results:
        gt = record.get("ground_truth", "")
        if not gt:
            continue
        pred = "" if "error" in record else extract_letter(_reply(record), record.get("options"))
        total += 1
        correct += pred == gt
        for name, key in (("axis", "axis"), ("subdim", "subdimension"), ("category", "category")):
            groups[name][record.get(key, "?")][1] += 1
            groups[name][record.get(key, "?")][0] += pred == gt
    return {
        "accuracy": correct / total if total else 0.0,
        "by_category": {k: v[0] / v[1] for k, v in sorted(groups["category"].items())},
        "by_axis": {k: v[0] / v[1] for k, v in sorted(groups["axis"].items())},
    }


def ver_a(results: list[dict[str, Any]]) -> dict[str, Any]:
    """eval_hear_vera.evaluate: a Reasoning pair is one unit, right when both members are."""
    singles, pairs = [], defaultdict(dict)
    for record in results:
        gt = record.get("ground_truth", "")
        if not gt:
            continue
        ok = (
            False
            if "error" in record
            else extract_letter(_reply(record), record.get("options")) == gt
        )
        qid = str(record.get("id", ""))
        base = next(
            (qid[: -len(s)] for s in ("_original", "_hallucinated") if qid.endswith(s)), None
        )
        if record.get("axis") == "Reasoning" and base:
            pairs[base][qid[len(base) :]] = ok
        else:
            singles.append(ok)
    complete = {b: v for b, v in pairs.items() if len(v) == 2}
    right = sum(1 for v in complete.values() if all(v.values()))
    units = len(singles) + len(complete)
    return {"ver_a": 100.0 * (sum(singles) + right) / units if units else 0.0, "units": units}


def build_input_rows(dataset: Any, audio_dir: str) -> list[dict[str, Any]]:
    """HEAR's ``hear/run_hear.py:build_input``, step by step, on a loaded dataset: writes each
    item's audio to ``audio_dir`` and returns the rows it writes to its input file."""
    import os

    import soundfile as sf

    rows = []
    for r in dataset:
        wav = os.path.join(audio_dir, f"{r['question_id']}.wav")
        if not os.path.exists(wav):
            sf.write(wav, r["audio"]["array"], r["audio"]["sampling_rate"])
        rows.append({
            "id": r["question_id"], "clip_id": r["clip_id"], "dataset": r["source_corpus"],
            "axis": r["taxonomy"], "subdimension": r["subtaxonomy"], "category": _category(r),
            "options": r["options"], "ground_truth": chr(65 + r["answer_idx"]),
            "instruction": _instruction(r), "audio_path": os.path.abspath(wav),
        })  # fmt: skip
    return rows


def _category(r: Any) -> str:
    sub, task, ov = r["subtaxonomy"], r["task_name"], r["overlap"]
    if sub == "VCD":
        return f"VCD_{task}"
    if task == "none":
        return f"{sub}_{ov}" if ov else sub
    head = task if task.startswith(sub) else f"{sub}_{task}"
    return f"{head}_{ov}" if ov else head


def _instruction(r: Any) -> str:
    sub = r["subtaxonomy"]
    if sub == "CVA":
        head = ("Listen to the main audio, followed by the voice options audio where each "
                "option (A through E) is announced before its voice sample, and answer the "
                "following multiple-choice question.")  # fmt: skip
        body = f"\n\n{r['question']}\n"
    else:
        if sub in ("VL", "VCA"):
            head = ("Listen to the main audio, followed by a reference voice of the target "
                    "speaker, and answer the following multiple-choice question.")  # fmt: skip
        else:
            head = "Listen to the main audio and answer the following multiple-choice question."
        opts = "\n".join(f"({chr(65 + i)}) {o}" for i, o in enumerate(r["options"]))
        body = f"\n\n{r['question']}\n\nOptions:\n{opts}\n"
    return head + body + '\nRespond in JSON format, e.g. {"Answer": "A"}'
