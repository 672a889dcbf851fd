"""The banded edit distance (msbench.scoring.matching.edit_counts) equals kaldialign's edit_distance,
total and S/I/D, on seeded sequences with many ties, empty sides, and bounds that must grow."""

from __future__ import annotations

import random

import kaldialign
import pytest

from msbench.scoring.matching import edit_counts as module
from msbench.scoring.matching.edit_counts import edit_counts


def kaldi(ref: list[str], hyp: list[str]) -> dict[str, int]:
    found = kaldialign.edit_distance(ref, hyp)
    return {k: int(found[k]) for k in ("total", "ins", "del", "sub")}


@pytest.mark.parametrize("seed", range(6))
def test_equal_to_kaldialign_on_seeded_sequences(seed: int):
    rng = random.Random(seed)
    for _ in range(150):
        vocab = list("abcdef")[: rng.randint(1, 6)]
        ref = [rng.choice(vocab) for _ in range(rng.randint(0, 60))]
        hyp = [w if rng.random() > 0.3 else rng.choice(vocab) for w in ref if rng.random() > 0.2]
        hyp += [rng.choice(vocab) for _ in range(rng.randint(0, 12))]
        if rng.random() < 0.3:
            rng.shuffle(hyp)  # far from the reference: the bound must grow
        assert edit_counts(ref, hyp) == kaldi(ref, hyp), (seed, ref, hyp)


def test_long_sequences_and_the_band_growing(monkeypatch):
    rng = random.Random(7)
    ref = [rng.choice("abcdefghij") for _ in range(3000)]
    hyp = [w if rng.random() > 0.4 else rng.choice("abcdefghij") for w in ref if rng.random() > 0.1]
    calls: list[int] = []
    banded = module.banded_counts

    def counted(r, h, bound):
        calls.append(bound)
        return banded(r, h, bound)

    monkeypatch.setattr(module, "banded_counts", counted)
    assert edit_counts(ref, hyp) == kaldi(ref, hyp)
    assert len(calls) >= 2  # the first guess (10 %) is below the cost: the band doubled
    assert edit_counts([], ["a"]) == kaldi([], ["a"]) and edit_counts(["a"], []) == kaldi(["a"], [])
