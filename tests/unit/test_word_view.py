"""The word view (msbench.scoring.word_view): every word's class comes from the alignments the
scores come from, so its S, I and D equal meeteval's cpWER and tcpWER counts (computed here by
meeteval itself) on seeded random sessions, many speakers and empty sides included; a word
given to the wrong speaker is a speaker error; each word appears once with its time."""

from __future__ import annotations

import random

import meeteval
import pytest

from msbench.records import Segment
from msbench.scoring.pair import score_session

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core

WORDS = "yes no okay right so the a we i mean well and".split()


def session(rng: random.Random, speakers: int, segments: int, prefix: str) -> list[Segment]:
    out = []
    for _ in range(segments):
        start = round(rng.uniform(0, 60), 2)
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 8)))
        out.append(Segment("u", start, round(start + rng.uniform(0.2, 5), 2),
                           f"{prefix}{rng.randrange(speakers)}", words))  # fmt: skip
    return out


def meeteval_counts(ref: list[Segment], hyp: list[Segment]) -> dict[str, tuple[int, int, int]]:
    def rows(side):
        return meeteval.io.SegLST([
            {"session_id": "u", "speaker": s.speaker, "start_time": s.start_time,
             "end_time": s.end_time, "words": s.words} for s in side
        ])  # fmt: skip

    cp = meeteval.wer.cpwer(rows(ref), rows(hyp))["u"]
    tcp = meeteval.wer.tcpwer(rows(ref), rows(hyp), collar=5)["u"]
    return {v: (e.substitutions, e.insertions, e.deletions) for v, e in (("cp", cp), ("tcp", tcp))}


@pytest.mark.parametrize("seed", range(12))
def test_classes_count_what_meeteval_counts(seed: int):
    rng = random.Random(seed)
    ref = session(rng, rng.randint(1, 4), rng.randint(1, 25), "r")
    hyp = session(rng, rng.randint(1, 6), rng.randint(0, 25), "h")
    if not hyp:
        hyp = [Segment("u", 0.0, 1.0, "h0", "")]
    view = score_session(ref, hyp, [(0.0, 70.0)], "u", 0.25, with_word_view=True).word_view
    assert view is not None and view["problem"] is None
    for name, (s, i, d) in meeteval_counts(ref, hyp).items():
        ref_classes = [w[name] for w in view["reference"]]
        hyp_classes = [w[name] for w in view["hypothesis"]]
        assert (ref_classes.count("substitution"), hyp_classes.count("insertion"),
                ref_classes.count("deletion")) == (s, i, d), (seed, name)  # fmt: skip
        assert hyp_classes.count("substitution") == s
    assert len(view["reference"]) == sum(len(s.words.split()) for s in ref)
    assert len(view["hypothesis"]) == sum(len(s.words.split()) for s in hyp)


def test_many_hypothesis_speakers_beyond_meeteval_limits():
    rng = random.Random(5)
    ref = session(rng, 3, 30, "r")
    hyp = [Segment("u", s.start_time, s.end_time, f"h{k}", s.words) for k, s in enumerate(ref)]
    view = score_session(ref, hyp, [(0.0, 70.0)], "u", 0.25, with_word_view=True).word_view
    assert view["problem"] is None
    assert len(view["mapping"]["cp"]) == 3  # 30 hypothesis speakers, 3 matched


def test_a_word_given_to_the_wrong_speaker_is_a_speaker_error():
    ref = [Segment("u", 0.0, 1.0, "A", "alpha beta"), Segment("u", 1.0, 2.0, "B", "gamma delta")]
    hyp = [Segment("u", 0.0, 2.0, "X", "alpha beta gamma delta")]
    view = score_session(ref, hyp, [(0.0, 2.0)], "u", 0.25, with_word_view=True).word_view
    assert view["mapping"]["cp"] == {"X": "A"}
    assert [(w["word"], w["cp"], w["cp_speaker_error"]) for w in view["reference"]] == [
        ("alpha", "correct", False), ("beta", "correct", False),
        ("gamma", "deletion", True), ("delta", "deletion", True),
    ]  # fmt: skip
    assert [w["cp"] for w in view["hypothesis"]] == ["correct"] * 2 + ["insertion"] * 2
    # meeteval's character_based times: "alpha beta" splits 1 s by 5:4 characters, "gamma
    # delta" by 5:5, the hypothesis' 2 s by 5:4:5:5
    assert [w["start"] for w in view["reference"]] == [0.0, 0.555556, 1.0, 1.5]
    assert [w["start"] for w in view["hypothesis"]] == [0.0, 0.526316, 0.947368, 1.473684]
