"""Probe items on seeded simulated conversations: exactly one true option, text-only near chance.

Each conversation (tests/helpers/simulated.py) takes real lines (the demo's
transcripts: AMI, ES2004a, pyannote's sample) and gives them to 2 to 5
speakers with seeded gaps and
overlaps (a line lasts 0.3 s a word + 0.4 s), plus wordless speech (laughs)
that only the activity holds. No audio is needed to generate the items; the
truth and the text-only readers are the tests' own (tests/helpers).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.helpers.paths import DEMO
from tests.helpers.probe_truth import ClipFacts, true_options
from tests.helpers.simulated import simulated_items
from tests.helpers.text_baselines import accuracy_by_family

CONVERSATIONS = 24


def real_lines() -> list[str]:
    """Every line with three or more words of the demo's STM transcripts, in file order."""
    lines = []
    for path in sorted(DEMO.glob("*/annotations/**/*.stm")):
        for row in path.read_text(encoding="utf-8").splitlines():
            fields = row.split()
            if len(fields) >= 8:
                lines.append(" ".join(fields[5:]))
    return lines


@pytest.fixture(scope="module")
def simulated() -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, list]]:
    return simulated_items(CONVERSATIONS, real_lines())


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
