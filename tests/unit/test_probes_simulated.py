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

# synthesized conversations for every probe family, about a minute: CI runs them, the inner
# loop (-m 'not slow') does not
pytestmark = pytest.mark.slow

CONVERSATIONS = 60


def real_lines() -> list[str]:
    """Every line with three or more words of the demo's STM transcripts, in file order."""
    lines = []
    for path in sorted(DEMO.glob("*/annotations/**/*.stm")):
        for row in path.read_text(encoding="utf-8").splitlines():
            fields = row.split()
            if len(fields) >= 8:
                lines.append(" ".join(fields[5:]))
    return lines


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
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
    assert len(items) >= 300


def test_independent_text_only_readers_stay_near_chance_on_simulated_items(simulated):
    """Each of the tests' own readers: at most chance + 5 points per family (+ 10 under 30 items)."""
    items, utterances, _ = simulated
    for family, row in accuracy_by_family(items, utterances).items():
        allowed = 0.05 if row["items"] >= 30 else 0.10
        for reader, accuracy in row.items():
            if reader not in ("items", "chance"):
                assert accuracy <= row["chance"] + allowed + 1e-9, (family, reader, row)


def test_no_two_items_of_a_clip_share_options_and_answer(simulated):
    items, _, _ = simulated
    seen: dict[tuple, str] = {}
    for item in items:
        if item["option_voices"]:
            continue  # options are voices, each item its own
        key = (item["clip_id"], frozenset(item["options"]), item["options"][item["answer_idx"]])
        assert key not in seen, (item["question_id"], seen.get(key))
        seen[key] = item["question_id"]


def test_tr_first_items_offer_two_lines_of_the_quoted_speaker(simulated):
    items, _, _ = simulated
    firsts = [i for i in items if i["subtask"] == "first"]
    assert firsts
    for item in firsts:
        speaker = item["option_speakers"][item["answer_idx"]]
        assert item["option_speakers"].count(speaker) >= 2, item["question_id"]


def test_simulated_pool_is_the_demo_transcripts():
    assert len(real_lines()) >= 70 and Path(DEMO).is_dir()


@pytest.mark.parametrize(
    "line",
    [
        "he heard a strange noise on one side of the building",
        "we were hoping to get an answer",
        "just put it on the deskt desktop",
    ],
)
def test_a_shown_line_keeps_every_spoken_word(line: str):
    """Only what the annotation marks as not said (cut-off ``-``, tags) leaves the shown text."""
    from msbench.probes.text import shown_text

    assert shown_text(line) == line
    assert shown_text(f"<sil> {line} [noise] wor-") == line


def test_no_simulated_option_or_quote_loses_a_word_of_its_line(simulated):
    import re

    def plain(text: str) -> str:  # AMI's spelled letters (H_T_M_L_) are shown as letters
        return " ".join(
            w.replace("_", "") if re.fullmatch(r"(?:[A-Za-z]_)+", w) else w for w in text.split()
        ).lower()

    items, utterances, _ = simulated
    said = {plain(str(u["words"])) for u in utterances if u.get("words")}
    for item in items:
        for option in item["options"]:
            if option.startswith(("Voice ", "from ", "at ")) or option.isdigit():
                continue
            shown = plain(option)
            if shown.endswith(" ..."):  # a long line is offered by its first words
                head = shown.removesuffix(" ...")
                assert any(line.startswith(head) for line in said), (item["question_id"], option)
            else:
                assert shown in said, (item["question_id"], option)
