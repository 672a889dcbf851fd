"""Probe items from the demo's real AMI words: every answer re-derived here from the annotation."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import soundfile

from msbench.catalog import RECORDINGS, UTTERANCES
from msbench.tables import read_rows
from tests.helpers.paths import DEMO
from tests.helpers.probe_truth import ClipFacts, read_rttm
from tests.helpers.probes import make_probe_set
from tests.helpers.text_baselines import accuracy_by_family

FAMILIES = {"VC", "VL", "VCD", "CVA", "VCA", "IR", "TR", "QR"}


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def probe_set(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, list[dict[str, Any]], list[dict[str, Any]]]:
    folder = make_probe_set(tmp_path_factory.mktemp("probes"))
    items = [
        json.loads(line)
        for line in (folder / "items.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    return folder, items, read_rows(UTTERANCES, folder.parent / "inputs/utterances.csv")


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def rttm() -> dict[str, Any]:
    """The sources' RTTM speech, beside the utterances: who is active includes speech without words."""
    found = read_rttm(sorted((DEMO / "ami/annotations").glob("*.rttm")), "ami")
    found |= read_rttm([DEMO / "es2004a/annotations/ES2004a.rttm"], "es2004a")
    return found | read_rttm([DEMO / "two-speaker/annotations/sample.rttm"], "two_speaker")


def words(text: str) -> list[str]:
    return re.sub(r"[^\w']+", " ", text.lower()).split()


def clip_lines(item: dict[str, Any], utterances: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(
        (u for u in utterances if u["recording_id"] == item["recording_id"] and u["words"]
         and u["start_time"] >= item["clip_start"] and u["end_time"] <= item["clip_end"]),
        key=lambda u: (u["start_time"], u["end_time"]),
    )  # fmt: skip


def test_every_family_from_real_clips_or_its_text_only_drops_named(probe_set):
    """A family absent from the demo's set is one whose every draft a text-only reader solves."""
    folder, items, _ = probe_set
    present = {i["subtaxonomy"] for i in items}
    dropped = json.loads((folder / "probe_summary.json").read_text())["dropped"]
    assert len(present) >= 7, present
    for family in FAMILIES - present:
        assert any(k.startswith(f"{family}: text-only:") for k in dropped), (family, dropped)
    assert {"when_speaking", "next", "word_count"} <= {i["subtask"] for i in items}
    for item in items:
        assert 2 <= len(item["options"]) <= 5 and 0 <= item["answer_idx"] < len(item["options"])
        assert len({" ".join(words(o)) for o in item["options"]}) == len(item["options"])
        assert (folder / item["audio_path"]).exists()


def test_answer_positions_are_balanced_within_one(probe_set):
    _, items, _ = probe_set
    positions: dict[tuple[str, int], Counter[int]] = defaultdict(Counter)
    for item in items:
        positions[(item["subtaxonomy"], len(item["options"]))][item["answer_idx"]] += 1
    for (family, n), counts in positions.items():
        per_position = [counts[k] for k in range(n)]
        assert max(per_position) - min(per_position) <= 1, (family, n, per_position)


def test_reference_voices_are_one_speaker_alone_outside_the_evidence(probe_set, rttm):
    from msbench.probes.text import content_words

    _, items, utterances = probe_set
    snippets = 0
    for item in items:
        voices = [item["reference_voice"]] if item["reference_voice"] else []
        voices += item["option_voices"]
        quotes = item["question"].split('"')[1::2]
        banned = {w for q in quotes for w in content_words(q)}
        for voice in voices:
            start, end = voice["start"], voice["end"]
            assert 2.0 - 1e-6 <= end - start <= 4.0 + 1e-6
            during = [u for u in utterances if u["recording_id"] == voice["recording_id"]
                      and u["start_time"] < end and u["end_time"] > start]  # fmt: skip
            assert {u["speaker"] for u in during} == {voice["speaker"]}
            facts = ClipFacts({**item, "recording_id": voice["recording_id"]}, utterances, rttm)
            assert facts.active(start, end) == [voice["speaker"]]  # alone, by the RTTM too
            assert all(e["end"] <= start or e["start"] >= end for e in item["evidence"])
            assert not {w for u in during for w in content_words(u["words"])} & banned
            snippets += 1
    assert snippets > 10


def frame_share(facts: ClipFacts, item: dict[str, Any]) -> float:
    """The overlap share counted on 10 ms frames (an independent computation)."""
    hit = total = 0
    for span in item["evidence"]:
        for frame in range(int(round(span["start"] * 100)), int(round(span["end"] * 100))):
            t = (frame + 0.5) / 100
            active = {s for s in facts.activity if facts.talks(s, t - 1e-7, t + 1e-7) > 0}
            total += 1
            hit += (
                (len(active) >= 2) if span["speaker"] is None else bool(active - {span["speaker"]})
            )
    return hit / total


def test_overlap_labels_follow_the_share_rule(probe_set, rttm):
    _, items, utterances = probe_set
    for item in items:
        share = frame_share(ClipFacts(item, utterances, rttm), item)
        assert abs(share - item["overlap_share"]) < 0.02, item["question_id"]
        assert item["overlap"] == ("overlap" if item["overlap_share"] >= 0.15 else "nonoverlap")
        assert item["overlap_share"] >= 0.15 or item["overlap_share"] <= 0.05
    assert {i["overlap"] for i in items} == {"overlap", "nonoverlap"}


def test_every_text_only_baseline_stays_near_chance_per_family(probe_set, tmp_path):
    """On all the demo's AMI clips and the ES2004a excerpt: each reader <= chance + 10 points
    per family and task (a set under 30 items), with its 95 % interval in the summary."""
    folder, items, _ = probe_set
    summary = json.loads((folder / "probe_summary.json").read_text())
    accuracy = {k: v for k, v in summary["text_only_accuracy"].items()}
    tasks = {f"{i['subtaxonomy']}/{i['task_name']}" for i in items}
    assert set(accuracy) == tasks
    for task, row in accuracy.items():
        for baseline, value in row.items():
            if baseline not in ("items", "chance", "interval_95"):
                assert value <= row["chance"] + 0.05 + 1e-6, (task, baseline, row)
                low, high = row["interval_95"][baseline]
                assert low <= value <= high
    for task in tasks:  # re-counted from the rows: the same means
        mine = [i for i in items if f"{i['subtaxonomy']}/{i['task_name']}" == task]
        for baseline in ("transcript_order", "lexical_overlap", "longest_span", "word_lines"):
            mean = sum(i["text_only"][baseline] for i in mine) / len(mine)
            assert abs(mean - accuracy[task][baseline]) < 1e-3
    _, _, utterances = probe_set  # and the tests' own readers, coded apart (tests/helpers)
    for family, row in accuracy_by_family(items, utterances).items():
        for reader, value in row.items():
            if reader not in ("items", "chance"):
                assert value <= row["chance"] + 0.10, (family, reader, row)
    assert any("text-only" in reason for reason in summary["dropped"])
    flagged = make_probe_set(tmp_path, text_only="flag")  # kept and flagged instead of dropped
    kept = [json.loads(x) for x in (flagged / "items.jsonl").read_text().splitlines()]
    marked = Counter(i["subtaxonomy"] for i in kept if i["text_only_flag"])
    assert (
        marked
        and dict(marked)
        == json.loads((flagged / "probe_summary.json").read_text())["text_only_solvable"]
    )
    assert all(max(i["text_only"].values()) > 0.5 for i in kept if i["text_only_flag"])


def test_weak_content_is_filtered_with_stated_rules(probe_set):
    """No filler quotes or options, no AMI marks, no restarts, no function-word questions."""
    from msbench.probes.text import content_words, is_restart

    _, items, _ = probe_set
    for item in items:
        texts = item["question"].split('"')[1::2]
        if item["subtaxonomy"] in ("VCA", "IR", "TR") or item["subtask"].startswith("rank"):
            texts += item["options"]
        for text in texts:
            assert "_" not in text, (item["question_id"], text)
            if item["subtask"] != "word_count":
                assert len(content_words(text)) >= 2, (item["question_id"], text)
        lines = [t for t in texts if len(t.split()) >= 3]
        assert not any(is_restart(a, b) for k, a in enumerate(lines) for b in lines[k + 1 :])
        if item["subtask"] == "word_count":
            word = texts[0]
            assert "'" not in word and len(word) >= 3 and content_words(word) == {word.lower()}


def test_item_audio_is_the_clip_then_the_announced_voices(probe_set):
    from msbench.probes.assemble import LETTERS, RATE, prompt, read_span, silence

    folder, items, _ = probe_set
    recordings = {
        r["recording_id"]: r for r in read_rows(RECORDINGS, folder.parent / "inputs/recordings.csv")
    }
    for item in [i for i in items if i["subtaxonomy"] in ("CVA", "VCA", "IR")][:6]:
        samples, rate = soundfile.read(folder / item["audio_path"], dtype="float32")
        recording = recordings[item["recording_id"]]
        clip = read_span(recording["audio_path"], 0, item["clip_start"], item["clip_end"])
        expected = len(clip) + len(silence(0.7))
        voices = [item["reference_voice"]] if item["reference_voice"] else []
        if voices:
            expected += len(prompt("reference")) + 2 * len(silence(0.3))
        for k, voice in enumerate(item["option_voices"]):
            expected += len(prompt(LETTERS[k])) + len(silence(0.3)) + len(silence(0.5))
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
