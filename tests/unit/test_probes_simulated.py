"""Probe items on seeded simulated conversations: exactly one true option, text-only near chance.

Each conversation takes real lines (the demo's transcripts: AMI, ES2004a,
pyannote's sample) and gives them to 2 to 5 speakers with seeded gaps and
overlaps (a line lasts 0.3 s a word + 0.4 s), plus wordless speech (laughs)
that only the activity holds. No audio is needed to generate the items; the
truth and the text-only readers are the tests' own (tests/helpers).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from msbench.probes.clips import lines_by_recording, recording_clips
from msbench.probes.generate import generate
from msbench.stages.options import resolve_settings
from tests.helpers.paths import DEMO
from tests.helpers.probe_truth import ClipFacts, true_options
from tests.helpers.text_baselines import accuracy_by_family

CONVERSATIONS = 24
GAPS = (-1.0, -0.4, 0.0, 0.15, 0.4, 0.9, 1.6)


def real_lines() -> list[str]:
    """Every line with three or more words of the demo's STM transcripts, in file order."""
    lines = []
    for path in sorted(DEMO.glob("*/annotations/**/*.stm")):
        for row in path.read_text(encoding="utf-8").splitlines():
            fields = row.split()
            if len(fields) >= 8:
                lines.append(" ".join(fields[5:]))
    return lines


def conversation(k: int, pool: list[str]) -> tuple[list[dict[str, Any]], list[tuple]]:
    """Utterance rows and wordless activity ``(speaker, start, end)`` of conversation ``k``."""
    rng = random.Random(f"simulated:{k}")
    rid = f"sim::c{k:02d}"
    speakers = [f"{rid}::S{j}" for j in range(rng.randint(2, 5))]
    free_at = dict.fromkeys(speakers, 0.0)
    rows, laughs, now = [], [], 0.5
    for _ in range(rng.randint(16, 32)):
        words = pool[rng.randrange(len(pool))]
        speaker = rng.choice(speakers)
        start = round(max(now + rng.choice(GAPS), free_at[speaker] + 0.2, 0.0), 3)
        end = round(start + 0.3 * len(words.split()) + 0.4, 3)
        rows.append(
            {"recording_id": rid, "speaker": speaker, "start_time": start, "end_time": end,
             "words": words}
        )  # fmt: skip
        free_at[speaker], now = end, max(now, end)
        if rng.random() < 0.2:
            other = rng.choice([s for s in speakers if s != speaker])
            at = round(start + rng.uniform(0, end - start), 3)
            laughs.append((other, at, round(at + 0.5, 3)))
            free_at[other] = max(free_at[other], at + 0.5)
    return rows, laughs


@pytest.fixture(scope="module")
def simulated() -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, list]]:
    settings = resolve_settings(None, json.dumps({"probes": {"seed": 0}}), None)["probes"]
    pool = real_lines()
    utterances, activity, clips = [], {}, []
    for k in range(CONVERSATIONS):
        rows, laughs = conversation(k, pool)
        rid = rows[0]["recording_id"]
        utterances += rows
        activity[rid] = [(a, b, s) for s, a, b in laughs]
        recording = {"recording_id": rid, "duration_seconds": max(r["end_time"] for r in rows)
                     + 1.0, "P": "P2", "O": "O2", "S": "S2", "T": "T2", "N": "N2"}  # fmt: skip
        clips += recording_clips(
            recording, lines_by_recording(rows)[rid], settings["max_clip_seconds"],
            settings["search_seconds"], laughs,
        )  # fmt: skip
    generated = generate(clips, dict.fromkeys(activity, "sim"), settings)
    return generated.rows, utterances, activity


def test_every_simulated_item_has_exactly_one_true_option(simulated):
    items, utterances, activity = simulated
    wrong = {}
    for item in items:
        truth = true_options(item, ClipFacts(item, utterances, activity))
        if truth != [item["answer_idx"]]:
            wrong[item["question_id"]] = (item["subtask"], truth, item["answer_idx"])
    assert not wrong, wrong
    assert {i["subtaxonomy"] for i in items} == {"VC", "VL", "VCD", "CVA", "VCA", "IR", "TR", "QR"}
    assert len(items) >= 150


def test_independent_text_only_readers_stay_near_chance_on_simulated_items(simulated):
    items, utterances, _ = simulated
    for family, row in accuracy_by_family(items, utterances).items():
        for reader, accuracy in row.items():
            if reader not in ("items", "chance"):
                assert accuracy <= row["chance"] + 0.10, (family, reader, row)


def test_simulated_pool_is_the_demo_transcripts():
    assert len(real_lines()) >= 70 and Path(DEMO).is_dir()
