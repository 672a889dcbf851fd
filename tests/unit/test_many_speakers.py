"""cpWER and tcpWER for any number of speakers (msbench.scoring.matching.permutation).

* Up to 20 speakers a side, where meeteval computes them: equal to meeteval's
  ``cpwer`` and ``tcpwer`` (errors, each count, the assignment) on seeded sessions.
* Above 20 (34 reference speakers, 35 hypothesis ones): equal to an
  independent computation, a plain Python Levenshtein per speaker pair and a
  different assignment solver (scipy's ``min_weight_full_bipartite_matching``);
  and ``msbench score`` scores such a file instead of stopping with
  meeteval's "Are you sure?".
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from msbench.records import Segment
from msbench.scoring.matching import permutation
from msbench.scoring.wer import HYP_PSEUDO_WORD_TIMING, REF_PSEUDO_WORD_TIMING, seglst

VOCAB = ("a", "b", "c", "d", "e", "f")


def seeded_sides(
    seed: int, ref_speakers: int, hyp_speakers: int
) -> tuple[list[Segment], list[Segment]]:
    rng = random.Random(seed)
    ref, hyp = [], []
    for k in range(ref_speakers * 3):
        start = round(rng.uniform(0, 300), 2)
        words = " ".join(rng.choice(VOCAB) for _ in range(rng.randint(1, 8)))
        ref.append(Segment("s", start, start + rng.uniform(0.5, 6), f"R{k % ref_speakers}", words))
        kept = " ".join(w if rng.random() > 0.15 else rng.choice(VOCAB) for w in words.split())
        shift = rng.uniform(-0.5, 0.5)
        hyp.append(
            Segment(
                "s",
                max(0.0, start + shift),
                start + shift + 3,
                f"H{rng.randrange(hyp_speakers)}",
                kept,
            )
        )
    return ref, hyp


def _sides(ref: list[Segment], hyp: list[Segment]):
    tokens = lambda side: [(s.words or "").split() for s in side]  # noqa: E731
    return seglst(ref, "s", tokens(ref)), seglst(hyp, "s", tokens(hyp))


def _counts(result) -> tuple:
    return (result.errors, result.length, result.insertions, result.deletions, result.substitutions)


@pytest.mark.parametrize("seed", range(12))
def test_equal_to_meeteval_up_to_its_twenty_speakers(seed: int):
    import meeteval

    rng = random.Random(seed)
    ref, hyp = seeded_sides(seed, rng.randint(1, 20), rng.randint(1, 20))
    r, h = _sides(ref, hyp)
    timing = {
        "collar": 5.0, "ref_pseudo_word_timing": REF_PSEUDO_WORD_TIMING,
        "hyp_pseudo_word_timing": HYP_PSEUDO_WORD_TIMING,
    }  # fmt: skip
    cp, their_cp = permutation.cpwer(r, h), meeteval.wer.cpwer(r, h)["s"]
    assert _counts(cp) == _counts(their_cp) and cp.assignment == their_cp.assignment
    tcp = permutation.tcpwer(r, h, 5.0, REF_PSEUDO_WORD_TIMING, HYP_PSEUDO_WORD_TIMING)
    their_tcp = meeteval.wer.tcpwer(r, h, **timing)["s"]
    assert _counts(tcp) == _counts(their_tcp) and tcp.assignment == their_tcp.assignment


def levenshtein(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        diagonal, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            diagonal, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, diagonal + (x != y))
    return row[-1]


def test_34_speakers_equal_an_independent_levenshtein_and_assignment():
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import min_weight_full_bipartite_matching

    ref, hyp = seeded_sides(7, 34, 40)
    r, h = _sides(ref, hyp)
    found = permutation.cpwer(r, h)

    def streams(side: list[Segment]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for s in sorted(side, key=lambda s: s.start_time):
            out.setdefault(s.speaker, []).extend((s.words or "").split())
        return out

    rs, hs = streams(ref), streams(hyp)
    size = max(len(rs), len(hs))
    ref_streams = list(rs.values()) + [[]] * (size - len(rs))
    hyp_streams = list(hs.values()) + [[]] * (size - len(hs))
    cost = np.array([[levenshtein(a, b) for b in hyp_streams] for a in ref_streams])
    rows, cols = min_weight_full_bipartite_matching(csr_matrix(cost + 1))
    assert len(rs) == 34 and len(hs) > 20
    assert found.errors == int(cost[rows, cols].sum())
    assert found.length == sum(len(w) for w in rs.values())


def test_msbench_score_scores_a_34_speaker_reference(tmp_path: Path):
    scores, said = _score_files(tmp_path, *seeded_sides(3, 34, 34))
    assert scores["tcpwer"]["length"] == scores["cpwer"]["length"]
    assert "Are you sure" not in said


@pytest.mark.parametrize("hyp_speakers", [60, 300])
def test_hundreds_of_hypothesis_speakers_against_two(hyp_speakers: int, tmp_path: Path):
    """meeteval stops at 52 unmatched speakers ("Too few fallback keys provided!"); msbench
    scores them, equal to an independent Levenshtein and assignment; msbench score (the
    diagnosis included) answers."""
    from scipy.optimize import linear_sum_assignment

    ref, hyp = seeded_sides(11, 2, hyp_speakers)
    copies = hyp * (hyp_speakers // len(hyp) + 1)  # a mis-clustering system: a speaker a segment
    hyp = [Segment("s", x.start_time, x.end_time, f"H{k}", x.words) for k, x in enumerate(copies)]
    hyp = hyp[:hyp_speakers]
    r, h = _sides(ref, hyp)
    found = permutation.cpwer(r, h)
    rs: dict[str, list[str]] = {}
    for s in sorted(ref, key=lambda s: s.start_time):
        rs.setdefault(s.speaker, []).extend((s.words or "").split())
    hs = {s.speaker: (s.words or "").split() for s in hyp}
    size = max(len(rs), len(hs))
    ref_streams = list(rs.values()) + [[]] * (size - len(rs))
    hyp_streams = list(hs.values()) + [[]] * (size - len(hs))
    cost = np.array([[levenshtein(a, b) for b in hyp_streams] for a in ref_streams])
    rows, cols = linear_sum_assignment(cost)
    assert len(hs) == hyp_speakers and found.falarm_speaker == hyp_speakers - 2
    assert found.errors == int(cost[rows, cols].sum())
    tcp = permutation.tcpwer(r, h, 5.0, REF_PSEUDO_WORD_TIMING, HYP_PSEUDO_WORD_TIMING)
    assert tcp.length == found.length and tcp.errors >= found.errors
    scores, _ = _score_files(tmp_path, ref, hyp)
    assert scores["e_attr"] is not None


def _score_files(folder: Path, ref: list[Segment], hyp: list[Segment]) -> tuple[dict, str]:
    """``msbench score`` on the two sides written as STM: its JSON and its stderr."""
    for name, side in (("ref", ref), ("hyp", hyp)):
        lines = (f"s 1 {x.speaker} {x.start_time:.2f} {x.end_time:.2f} {x.words}\n" for x in side)
        (folder / f"{name}.stm").write_text("".join(lines))
    done = subprocess.run(
        [sys.executable, "-m", "msbench.cli", "score", "--ref", str(folder / "ref.stm"),
         "--hyp", str(folder / "hyp.stm")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    scores = json.loads(done.stdout)
    assert scores["cpwer"]["errors"] > 0
    return scores, done.stderr
