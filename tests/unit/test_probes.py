"""Probe items from the demo's real AMI words: every answer re-derived here from the annotation."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile

from msbench.tables import read_table
from tests.helpers.probes import make_probe_set

FAMILIES = {"VC", "VL", "VCD", "CVA", "VCA", "IR", "TR", "QR"}


@pytest.fixture(scope="module")
def probe_set(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, list[dict[str, Any]], list[dict[str, Any]]]:
    folder = make_probe_set(tmp_path_factory.mktemp("probes"))
    items = [
        json.loads(line)
        for line in (folder / "items.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    return folder, items, read_table(folder.parent / "inputs/utterances.csv")


def words(text: str) -> list[str]:
    return re.sub(r"[^\w']+", " ", text.lower()).split()


def clip_lines(item: dict[str, Any], utterances: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(
        (u for u in utterances if u["recording_id"] == item["recording_id"] and u["words"]
         and u["start_time"] >= item["clip_start"] and u["end_time"] <= item["clip_end"]),
        key=lambda u: (u["start_time"], u["end_time"]),
    )  # fmt: skip


def said_by(text: str, lines: list[dict[str, Any]]) -> set[str]:
    """Speakers of the lines an option or quote shows (its first 16 words)."""
    shown = words(text.removesuffix(" ...").strip('"'))
    return {u["speaker"] for u in lines if words(u["words"])[: len(shown)] == shown and shown}


def quoted(item: dict[str, Any]) -> str:
    return item["question"].split('"')[1]


def total_speech(lines: list[dict[str, Any]], speaker: str) -> Fraction:
    spans = sorted(
        (Fraction(str(u["start_time"])), Fraction(str(u["end_time"])))
        for u in lines
        if u["speaker"] == speaker
    )
    total, end = Fraction(0), None
    for a, b in spans:
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def clock(seconds: float) -> str:
    tenths = int(round(seconds * 10))
    return f"{tenths // 600:02d}:{tenths % 600 // 10:02d}.{tenths % 10}"


def test_all_eight_families_from_real_clips(probe_set):
    folder, items, _ = probe_set
    assert {i["subtaxonomy"] for i in items} == FAMILIES
    tasks = {i["task_name"].split(":")[1] for i in items}
    assert {
        "when_speaking",
        "when_silent",
        "switch",
        "overlap",
        "first",
        "next",
        "word_count",
    } <= tasks
    for item in items:
        assert 2 <= len(item["options"]) <= 5 and 0 <= item["answer_idx"] < len(item["options"])
        assert len({" ".join(words(o)) for o in item["options"]}) == len(item["options"])
        assert (folder / item["audio_path"]).exists()


def rederive(item: dict[str, Any], lines: list[dict[str, Any]]) -> Any:
    """The correct option, from the annotation alone."""
    family, task = item["subtaxonomy"], item["task_name"].split(":")[1]
    if family == "VC":
        counted = {u["speaker"] for u in lines if sum(len(words(x["words"])) for x in lines if x["speaker"] == u["speaker"]) >= 2
                   and total_speech(lines, u["speaker"]) >= 1}  # fmt: skip
        return str(len(counted))
    if family == "VL":
        return _localised(item, lines, task)
    if family == "CVA":
        (speaker,) = said_by(quoted(item), lines)
        return [v["speaker"] for v in item["option_voices"]].index(speaker)
    if family in ("VCA", "IR", "TR") or (family == "QR" and task.startswith("rank")):
        return _line_of_speaker(item, lines, family, task)
    if family == "QR":
        word = item["question"].split('"')[1]
        return str(len({u["speaker"] for u in lines if word in words(u["words"])}))
    raise AssertionError(family)


def _localised(item: dict[str, Any], lines: list[dict[str, Any]], task: str) -> str:
    """VL: the span of the speaker's longest line, or the one span where they are quiet."""
    mine = [u for u in lines if u["speaker"] == item["reference_voice"]["speaker"]]
    start = item["clip_start"]
    if task == "when_silent":
        spans = {
            f"from {clock(u['start_time'] - start)} to {clock(u['end_time'] - start)}": u
            for u in lines
        }
        quiet = [
            o
            for o in item["options"]
            if not any(
                m["start_time"] < spans[o]["end_time"] and m["end_time"] > spans[o]["start_time"]
                for m in mine
            )
        ]
        assert all(
            spans[o]["speaker"] == mine[0]["speaker"] for o in item["options"] if o not in quiet
        )
        (answer,) = quiet
        return answer
    longest = max(
        mine,
        key=lambda u: (
            Fraction(str(u["end_time"])) - Fraction(str(u["start_time"])),
            -u["start_time"],
        ),
    )
    return f"from {clock(longest['start_time'] - start)} to {clock(longest['end_time'] - start)}"


def _line_of_speaker(
    item: dict[str, Any], lines: list[dict[str, Any]], family: str, task: str
) -> int:
    """VCA, IR, TR, QR rank: the one option said by the speaker the question is about."""
    options = item["options"]
    speaker = {
        "VCA": lambda: item["reference_voice"]["speaker"],
        "IR": lambda: next(iter(said_by(quoted(item), lines))),
        "TR": lambda: next(iter(said_by(quoted(item), lines))),
        "QR": lambda: sorted({u["speaker"] for u in lines}, key=lambda s: -total_speech(lines, s))[
            int(task[-1]) - 1
        ],
    }[family]()
    mine = [k for k, o in enumerate(options) if said_by(o, lines) == {speaker}]
    if family == "TR":
        after = (
            min(u["start_time"] for u in lines if said_by(quoted(item), [u]))
            if task == "next"
            else -1
        )
        own = sorted(
            (u["start_time"], u["words"])
            for u in lines
            if u["speaker"] == speaker and u["start_time"] > after
        )
        return next(
            k for k in mine if said_by(options[k], [{"speaker": speaker, "words": own[0][1]}])
        )
    assert len(mine) == 1, (item["question_id"], options)
    return mine[0]


def test_every_answer_is_rederived_from_the_annotation(probe_set):
    _, items, utterances = probe_set
    checked = Counter()
    for item in items:
        lines = clip_lines(item, utterances)
        if item["subtaxonomy"] == "VCD":
            t = item["derivation"]["time"]
            shown = item["options"][item["answer_idx"]]
            assert shown == f"at {clock(t - item['clip_start'])}"
            active = {u["speaker"] for u in lines if u["start_time"] < t < u["end_time"]}
            if item["task_name"].endswith("switch"):
                before = max((u for u in lines if u["end_time"] <= t), key=lambda u: u["end_time"])
                after = min(
                    (u for u in lines if u["start_time"] >= t), key=lambda u: u["start_time"]
                )
                assert not active and before["speaker"] != after["speaker"]
            else:
                assert len(active) >= 2
        else:
            expected = rederive(item, lines)
            got = (
                item["answer_idx"]
                if isinstance(expected, int)
                else item["options"][item["answer_idx"]]
            )
            assert got == expected, item["question_id"]
        checked[item["subtaxonomy"]] += 1
    assert set(checked) == FAMILIES


def test_answer_positions_are_balanced_within_one(probe_set):
    _, items, _ = probe_set
    positions: dict[tuple[str, int], Counter[int]] = defaultdict(Counter)
    for item in items:
        positions[(item["subtaxonomy"], len(item["options"]))][item["answer_idx"]] += 1
    for (family, n), counts in positions.items():
        per_position = [counts[k] for k in range(n)]
        assert max(per_position) - min(per_position) <= 1, (family, n, per_position)


def test_reference_voices_are_one_speaker_alone_outside_the_evidence(probe_set):
    _, items, utterances = probe_set
    snippets = 0
    for item in items:
        voices = [item["reference_voice"]] if item["reference_voice"] else []
        voices += item["option_voices"]
        quotes = item["question"].split('"')[1::2]
        banned = {w for q in quotes for w in words(q) if len(w) >= 3}
        for voice in voices:
            start, end = voice["start"], voice["end"]
            assert 2.0 - 1e-6 <= end - start <= 4.0 + 1e-6
            during = [u for u in utterances if u["recording_id"] == voice["recording_id"]
                      and u["start_time"] < end and u["end_time"] > start]  # fmt: skip
            assert {u["speaker"] for u in during} == {voice["speaker"]}
            assert all(e["end"] <= start or e["start"] >= end for e in item["evidence"])
            said = {w for u in during for w in words(u["words"])}
            from msbench.probes.text import STOPWORDS

            assert not (said & banned) - STOPWORDS
            snippets += 1
    assert snippets > 20


def frame_share(item: dict[str, Any], utterances: list[dict[str, Any]]) -> float:
    """The overlap share counted on 10 ms frames (an independent computation)."""
    lines = [u for u in utterances if u["recording_id"] == item["recording_id"]]
    hit = total = 0
    for span in item["evidence"]:
        for frame in range(int(round(span["start"] * 100)), int(round(span["end"] * 100))):
            t = (frame + 0.5) / 100
            active = {u["speaker"] for u in lines if u["start_time"] <= t < u["end_time"]}
            total += 1
            hit += (
                (len(active) >= 2) if span["speaker"] is None else bool(active - {span["speaker"]})
            )
    return hit / total


def test_overlap_labels_follow_the_share_rule(probe_set):
    _, items, utterances = probe_set
    for item in items:
        share = frame_share(item, utterances)
        assert abs(share - item["overlap_share"]) < 0.02, item["question_id"]
        assert item["overlap"] == (item["overlap_share"] >= 0.15)
        assert item["overlap_share"] >= 0.15 or item["overlap_share"] <= 0.05
    assert {i["overlap"] for i in items} == {True, False}


def test_text_only_filter_counts_and_flags(probe_set, tmp_path):
    folder, items, _ = probe_set
    summary = json.loads((folder / "summary.json").read_text())
    dropped = {
        k.split(":")[0]: v for k, v in summary["dropped"].items() if k.endswith("solved text-only")
    }
    assert dropped == summary["text_only_solvable"] and sum(dropped.values()) > 0
    assert all(max(i["text_only"].values()) <= 0.5 and not i["text_only_flag"] for i in items)
    flagged = make_probe_set(tmp_path, text_only="flag")
    kept = [json.loads(x) for x in (flagged / "items.jsonl").read_text().splitlines()]
    marked = Counter(i["subtaxonomy"] for i in kept if i["text_only_flag"])
    flagged_summary = json.loads((flagged / "summary.json").read_text())
    assert (
        dict(marked) == flagged_summary["text_only_solvable"] and marked
    )  # kept, flagged, counted
    assert all(max(i["text_only"].values()) > 0.5 for i in kept if i["text_only_flag"])


def test_item_audio_is_the_clip_then_the_announced_voices(probe_set):
    from msbench.probes.assemble import RATE, letter_code, read_span, silence, tone

    folder, items, _ = probe_set
    recordings = {r["recording_id"]: r for r in read_table(folder.parent / "inputs/recordings.csv")}
    for item in [i for i in items if i["subtaxonomy"] in ("CVA", "VCA", "IR")][:6]:
        samples, rate = soundfile.read(folder / item["audio_path"], dtype="float32")
        recording = recordings[item["recording_id"]]
        clip = read_span(recording["audio_path"], 0, item["clip_start"], item["clip_end"])
        expected = len(clip) + len(silence(0.7))
        voices = [item["reference_voice"]] if item["reference_voice"] else []
        if voices:
            expected += len(tone(440, 0.5)) + 2 * len(silence(0.3))
        for k, voice in enumerate(item["option_voices"], start=1):
            expected += len(letter_code(k)) + len(silence(0.3)) + len(silence(0.5))
            voices.append(voice)
        expected += sum(int(round((v["end"] - v["start"]) * RATE)) for v in voices)
        assert rate == RATE and abs(len(samples) - expected) <= len(voices) + 1
        assert np.max(np.abs(samples[: len(clip)] - clip)) < 2 / 32768  # the clip itself, as PCM16


def test_the_same_seed_gives_the_same_bytes(probe_set, tmp_path):
    folder, _, _ = probe_set
    again = make_probe_set(tmp_path)

    def digest(root: Path) -> dict[str, str]:
        return {
            str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*"))
            if p.is_file()
        }

    assert digest(again) == digest(folder)


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_the_scorer_on_constructed_answers(probe_set, tmp_path):
    from msbench.probes.score import read_answers, score_answers

    _, items, _ = probe_set
    letter = "ABCDE"
    right = write_jsonl(
        tmp_path / "right.jsonl",
        [
            {"question_id": i["question_id"], "response": {"Answer": letter[i["answer_idx"]]}}
            for i in items
        ],
    )
    report = score_answers(items, read_answers(right))
    assert report["accuracy"] == 1.0 and all(
        f["accuracy"] == 1.0 for f in report["by_family"].values()
    )
    assert sum(f["items"] for f in report["by_family"].values()) == len(items) == report["items"]
    # "A" everywhere, as a JSON object of letters: per family, the share of answers placed first
    always_a = tmp_path / "a.json"
    always_a.write_text(json.dumps({i["question_id"]: "A" for i in items}))
    report = score_answers(items, read_answers(always_a))
    for family, row in report["by_family"].items():
        mine = [i for i in items if i["subtaxonomy"] == family]
        assert row["correct"] == sum(i["answer_idx"] == 0 for i in mine) and row["items"] == len(
            mine
        )
    # wrong exactly on the overlap items; three missing, two unreadable (all count as wrong)
    replies = {
        i["question_id"]: letter[(i["answer_idx"] + i["overlap"]) % len(i["options"])]
        for i in items
    }
    clean = [i["question_id"] for i in items if not i["overlap"]]
    for qid in clean[:3]:
        del replies[qid]
    replies[clean[3]], replies[clean[4]] = "no idea", '{"Answer": "Z"}'
    mixed = write_jsonl(
        tmp_path / "mixed.jsonl", [{"question_id": q, "answer": a} for q, a in replies.items()]
    )
    report = score_answers(items, read_answers(mixed))
    assert report["by_overlap"]["overlap"]["accuracy"] == 0.0
    assert report["by_overlap"]["non-overlap"]["correct"] == len(clean) - 5
    assert (report["missing"], report["unreadable"]) == (3, 2)
    assert report["by_condition"]["P"] == {
        "P1": {"items": len(items), "correct": report["correct"], "accuracy": report["accuracy"]}
    }


def test_ver_a_counts_a_pair_only_when_both_are_right():
    from msbench.probes.score import score_answers

    def item(qid: str) -> dict[str, Any]:
        return {"question_id": qid, "options": ["x", "y"], "answer_idx": 0, "subtaxonomy": "IR",
                "taxonomy": "reasoning", "task_name": "identity_reasoning:counterfactual", "overlap": False}  # fmt: skip

    items = [item(f"q{k}_{side}") for k in range(3) for side in ("original", "hallucinated")] + [
        item("solo")
    ]
    answers = {"q0_original": "A", "q0_hallucinated": "A", "q1_original": "A", "q1_hallucinated": "B",
               "q2_original": "B", "q2_hallucinated": "B", "solo": "A"}  # fmt: skip
    report = score_answers(items, answers)
    assert report["ver_a"] == {"items": 3, "correct": 1, "accuracy": round(1 / 3, 6)}
    assert report["correct"] == 4


def test_unreadable_answer_files_name_the_entry(tmp_path):
    from msbench.errors import InputError
    from msbench.probes.score import read_answers

    bad = write_jsonl(
        tmp_path / "bad.jsonl", [{"question_id": "a", "answer": "B"}, {"answer": "C"}]
    )
    with pytest.raises(InputError, match=r"bad.jsonl:entry 2: an answer without question_id"):
        read_answers(bad)
