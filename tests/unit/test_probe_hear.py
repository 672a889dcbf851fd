"""HEAR's runner and scorers read msbench's probe set unchanged; msbench scores replies as HEAR does."""

from __future__ import annotations

import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from msbench.probes.accuracy import read_answers, score_answers
from msbench.probes.hear import HEAR_FIELDS, RUNNER_FIELDS, category
from tests.helpers import hear_rules
from tests.helpers.probes import make_probe_set

AXES = {"VC": "Discrimination", "VL": "Discrimination", "VCD": "Discrimination",
        "CVA": "Attribution", "VCA": "Attribution", "IR": "Reasoning", "TR": "Reasoning", "QR": "Reasoning"}  # fmt: skip
#: The spoken prompts, made once (scripts/make_probe_prompts.sh) and shipped: fixed bytes.
PROMPTS = {
    "A.wav": "8ff7714787e2688b", "B.wav": "7f4c5816cfeb6da2", "C.wav": "452c0903e02b2324",
    "D.wav": "bfc9d27a686b8ff8", "E.wav": "8f4d1921e5111b6a", "reference.wav": "a8ac974d389f833a",
}  # fmt: skip


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def probe_set(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    folder = make_probe_set(tmp_path_factory.mktemp("hear"))
    items = [
        json.loads(x) for x in (folder / "items.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    return folder, items


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_hear_rows_follow_hears_conventions(probe_set):
    folder, items = probe_set
    hear = read_jsonl(folder / "hear.jsonl")
    assert [list(r) for r in hear] == [list(HEAR_FIELDS)] * len(items)
    for row in hear:
        assert row["taxonomy"] == AXES[row["subtaxonomy"]]
        assert row["overlap"] in ("overlap", "nonoverlap")
        assert re.fullmatch(r"none|change|overlap|(VL|TR|QR)\d(_\w+)?", row["task_name"]), row
        assert category(row) in {
            f"{row['subtaxonomy']}_{row['overlap']}", f"VCD_{row['task_name']}",
            f"{row['task_name']}_{row['overlap']}",
        }  # fmt: skip
    assert {"QR1_nonoverlap", "TR1_first_overlap", "VCD_change"} & {category(r) for r in hear}


def test_the_runner_file_is_what_build_input_writes(probe_set):
    folder, items = probe_set
    runner = read_jsonl(folder / "hear_input.jsonl")
    assert [list(r) for r in runner] == [list(RUNNER_FIELDS)] * len(items)
    for row, item in zip(runner, items, strict=True):
        assert row["id"] == item["question_id"] and row["axis"] == AXES[row["subdimension"]]
        assert row["ground_truth"] == "ABCDE"[item["answer_idx"]]
        assert (
            folder / row["audio_path"]
        ).is_file()  # relative to the file, as inference.py resolves
        assert row["instruction"].endswith('Respond in JSON format, e.g. {"Answer": "A"}')
        if row["subdimension"] == "CVA":
            assert "announced before its voice sample" in row["instruction"]
            assert "Options:" not in row["instruction"]
        else:
            assert (
                f"({'ABCDE'[len(row['options']) - 1]}) {row['options'][-1]}" in row["instruction"]
            )


def replies(item: dict[str, Any], rng: random.Random) -> Any:
    """A reply in one of the forms models write (right, wrong, or unreadable)."""
    k = item["answer_idx"] if rng.random() < 0.6 else rng.randrange(len(item["options"]))
    letter, option = "ABCDE"[k], item["options"][k]
    numbers = re.findall(r"\d+\.\d", option)
    forms = [
        f'{{"Answer": "{letter}"}}', f'{{"answer": "{letter.lower()}"}}', f'{{"Answer": {k}}}',
        f'{{"answer": {k}}}', f"({letter})", f"The answer is {letter}.", f"Voice {letter}",
        f'"Answer": "{option}",', option, f"I think it is: {option}", {"prediction": letter},
        {"Answer": letter}, {"reasoning": "..."}, "I am not sure.", "", "answer: b maybe",
        f"[{numbers[0]}s - {numbers[-1]}s]" if len(numbers) >= 2 else f"{letter})",
    ]  # fmt: skip
    return rng.choice(forms)


def test_msbench_reads_every_reply_as_hears_scorer_does(probe_set, tmp_path):
    folder, items = probe_set
    runner = read_jsonl(folder / "hear_input.jsonl")
    rng = random.Random(0)
    results = []
    for row, item in zip(runner * 4, items * 4, strict=True):
        record = {**row, "response": replies(item, rng)}
        if rng.random() < 0.03:
            record["error"] = "timeout"
        results.append(record)
    for k, record in enumerate(results):  # ids unique, as in one results file each
        record["id"] = f"{record['id']}#{k}"
    path = tmp_path / "model__hear_input_results.json"
    path.write_text(json.dumps(results, ensure_ascii=False), encoding="utf-8")
    theirs = hear_rules.evaluate(results)
    expanded = [
        {**item, "question_id": r["id"]} for item, r in zip(items * 4, results, strict=True)
    ]
    ours = score_answers(expanded, read_answers(path))
    assert ours["accuracy"] == pytest.approx(theirs["accuracy"], abs=1e-6)
    assert {k: v["accuracy"] for k, v in ours["by_category"].items()} == pytest.approx(
        theirs["by_category"], abs=1e-6
    )
    for record, item in zip(results, expanded, strict=True):  # and item by item
        from msbench.probes.accuracy import chosen_letter

        want = (
            ""
            if "error" in record
            else hear_rules.extract_letter(hear_rules._reply(record), record["options"])
        )
        assert chosen_letter(record, item["options"])[0] == want, record["response"]
    assert ours["read_by"]["unparsed"] and ours["read_by"]["failed call (error)"]


def test_a_perfect_answerer_scores_100_and_always_a_the_share_of_a(probe_set):
    folder, items = probe_set
    runner = read_jsonl(folder / "hear_input.jsonl")
    perfect = [{**r, "response": f'{{"Answer": "{r["ground_truth"]}"}}'} for r in runner]
    always_a = [{**r, "response": '{"Answer": "A"}'} for r in runner]
    assert hear_rules.evaluate(perfect)["accuracy"] == 1.0
    share = sum(r["ground_truth"] == "A" for r in runner) / len(runner)
    assert hear_rules.evaluate(always_a)["accuracy"] == pytest.approx(share)
    mine = score_answers(
        items, {r["id"]: {"id": r["id"], "response": r["response"]} for r in always_a}
    )
    assert mine["accuracy"] == pytest.approx(share, abs=1e-6)  # reported to 6 decimals


def test_ver_a_is_hears_on_constructed_pairs():
    rng = random.Random(1)
    items, results = [], []
    for k in range(40):
        axis = "Reasoning" if k % 4 else "Attribution"
        for side in ("_original", "_hallucinated") if axis == "Reasoning" and k % 8 else ("",):
            qid = f"c{k}{side}"
            answer = rng.randrange(3)
            items.append({"question_id": qid, "options": ["x", "y", "z"], "answer_idx": answer,
                          "subtaxonomy": "IR", "taxonomy": axis, "task_name": "none", "overlap": "nonoverlap"})  # fmt: skip
            reply = "ABC"[answer] if rng.random() < 0.7 else "ABC"[rng.randrange(3)]
            results.append({"id": qid, "axis": axis, "options": ["x", "y", "z"],
                            "ground_truth": "ABC"[answer], "response": f'{{"Answer": "{reply}"}}'})  # fmt: skip
    items.append({**items[1], "question_id": "orphan_original", "taxonomy": "Reasoning"})
    results.append({**results[1], "id": "orphan_original"})
    theirs = hear_rules.ver_a(results)
    ours = score_answers(items, {r["id"]: r for r in results})
    assert ours["ver_a"] * 100 == pytest.approx(theirs["ver_a"], abs=1e-4)
    assert ours["units"] == theirs["units"] and ours["incomplete_pairs"] == ["orphan"]
    assert ours["ver_a_pairs_only"] == pytest.approx(ours["pairs_correct"] / ours["pairs"])


def test_the_spoken_prompts_are_the_shipped_bytes():
    from importlib import resources

    folder = resources.files("msbench.probes") / "assets"
    found = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()[:16]
        for p in folder.iterdir()
        if p.name.endswith(".wav")
    }
    assert found == PROMPTS
