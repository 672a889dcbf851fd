"""cpWER's word alignment (msbench.scoring.matching.edit_steps) walks the path whose counts kaldialign
reports: its S, I and D equal kaldialign's edit_distance on seeded sequences with many ties,
empty sides and far-apart sides, and every word of each side appears once, in order."""

from __future__ import annotations

import random

import kaldialign
import pytest

from msbench.scoring.matching.edit_steps import edit_steps


def counts(ref: list[str], hyp: list[str], steps) -> dict[str, int]:
    ins = sum(1 for r, h in steps if r is None)
    dels = sum(1 for r, h in steps if h is None)
    sub = sum(1 for r, h in steps if r is not None and h is not None and ref[r] != hyp[h])
    return {"total": ins + dels + sub, "ins": ins, "del": dels, "sub": sub}


@pytest.mark.parametrize("seed", range(5))
def test_steps_count_what_kaldialign_counts(seed: int):
    rng = random.Random(seed)
    for _ in range(200):
        vocab = list("abcdef")[: rng.randint(1, 6)]
        ref = [rng.choice(vocab) for _ in range(rng.randint(0, 50))]
        hyp = [w if rng.random() > 0.3 else rng.choice(vocab) for w in ref if rng.random() > 0.2]
        hyp += [rng.choice(vocab) for _ in range(rng.randint(0, 10))]
        if rng.random() < 0.3:
            rng.shuffle(hyp)
        steps = edit_steps(ref, hyp)
        found = kaldialign.edit_distance(ref, hyp)
        assert counts(ref, hyp, steps) == {k: int(found[k]) for k in ("total", "ins", "del", "sub")}
        assert [r for r, _ in steps if r is not None] == list(range(len(ref)))
        assert [h for _, h in steps if h is not None] == list(range(len(hyp)))


def test_a_long_pair():
    rng = random.Random(11)
    ref = [rng.choice("abcdefghij") for _ in range(4000)]
    hyp = [w if rng.random() > 0.4 else rng.choice("abcdefghij") for w in ref if rng.random() > 0.1]
    found = kaldialign.edit_distance(ref, hyp)
    assert counts(ref, hyp, edit_steps(ref, hyp)) == {
        k: int(found[k]) for k in ("total", "ins", "del", "sub")
    }
