"""meeteval's word alignment in linear memory (msbench.scoring.matching.banded) equals meeteval's.

Seeded sessions (up to 40 segments of 0 to 6 words from a small vocabulary,
so that ties are many; zero-length segments; overlaps; hypotheses jittered,
relabelled, with words dropped and substituted, or independent; sessions
that start late and are sorted, so that meeteval prunes) are aligned at the
collars 0, 0.5 s, 5 s and unbounded by msbench and by meeteval's ``align``
itself: the pairs are equal, step for step. Both of meeteval's modes are
exercised (pruned: sorted starts from 0; full matrix: otherwise).
"""

from __future__ import annotations

import logging
import random

import pytest

from msbench.records import Segment
from msbench.scoring.diagnosis import alignment
from msbench.scoring.matching import banded
from msbench.scoring.side import Side as ScoredSide
from msbench.scoring.wer import HYP_PSEUDO_WORD_TIMING, REF_PSEUDO_WORD_TIMING

Side = list[tuple[Segment, list[str]]]


def seeded_case(seed: int) -> tuple[Side, Side]:
    rng = random.Random(seed)
    vocab = list("abcdefg")[: rng.randint(2, 7)]
    start_at = rng.choice([0.0, 0.0, 7.0, 30.0])
    ref: Side = []
    hyp: Side = []
    for _ in range(rng.randint(0, 40)):
        start = start_at + round(rng.uniform(0, 60), 2)
        end = start + round(rng.choice([0, rng.uniform(0.2, 8)]), 2)
        words = [rng.choice(vocab) for _ in range(rng.randint(0, 6))]
        ref.append((Segment("s", start, end, rng.choice("ABC"), " ".join(words)), words))
        if rng.random() < 0.85:
            jitter = rng.choice([0, 0.1, 0.5, 2, 6])
            a = max(0.0, start + rng.uniform(-jitter, jitter))
            b = max(a, end + rng.uniform(-jitter, jitter))
            said = [
                w if rng.random() > 0.2 else rng.choice(vocab) for w in words if rng.random() > 0.1
            ]
            hyp.append(
                (Segment("s", round(a, 2), round(b, 2), rng.choice("XYZ"), " ".join(said)), said)
            )
    for _ in range(rng.randint(0, 4)):
        start = start_at + round(rng.uniform(0, 60), 2)
        words = [rng.choice(vocab) for _ in range(rng.randint(1, 3))]
        hyp.append((Segment("s", start, start + 1.5, "X", " ".join(words)), words))
    if rng.random() < 0.3:
        ref.sort(key=lambda item: item[0].start_time)
    return ref, hyp


def _meeteval_rows(side: Side) -> list[dict]:
    return [
        {"speaker": s.speaker, "start_time": s.start_time, "end_time": s.end_time,
         "words": " ".join(t), "segment": k}
        for k, (s, t) in enumerate(side)
    ]  # fmt: skip


def _meeteval_word(row: dict | None) -> alignment.Word | None:
    if row is None:
        return None
    return alignment.Word(
        row["words"], row["speaker"], int(row["segment"]),
        float(row["start_time"]), float(row["end_time"]),
    )  # fmt: skip


def meeteval_pairs(ref: Side, hyp: Side, collar: float) -> list[alignment.Pair]:
    """meeteval's own ``align`` (its preprocessing, alignment and backtrace), as Pairs."""
    from meeteval.wer.wer.time_constrained import align

    rows_r, rows_h = _meeteval_rows(ref), _meeteval_rows(hyp)
    if not any(r["words"] for r in rows_r) and not any(h["words"] for h in rows_h):
        return []
    steps = align(
        rows_r, rows_h, collar=collar, style="seglst",
        reference_pseudo_word_level_timing=REF_PSEUDO_WORD_TIMING,
        hypothesis_pseudo_word_level_timing=HYP_PSEUDO_WORD_TIMING,
        reference_sort="segment", hypothesis_sort="segment",
    )  # fmt: skip
    return [alignment.Pair(_meeteval_word(r), _meeteval_word(h)) for r, h in steps]


def test_the_alignment_is_meetevals_step_for_step_in_both_of_its_modes(monkeypatch):
    logging.disable(logging.WARNING)
    modes = {"pruned": 0, "banded": 0}
    pruned, diagonal = banded.pruned_bands, banded.diagonal_bands

    def count(mode, function):
        def counted(*args):
            modes[mode] += 1
            return function(*args)

        return counted

    monkeypatch.setattr(banded, "pruned_bands", count("pruned", pruned))
    monkeypatch.setattr(banded, "diagonal_bands", count("banded", diagonal))
    differ = []
    try:
        for seed in range(250):
            ref, hyp = seeded_case(seed)
            for collar in (0.0, 0.5, 5.0, alignment.UNBOUNDED_COLLAR):
                ours = alignment.align_words(
                    ScoredSide([s for s, _ in ref], [t for _, t in ref]),
                    ScoredSide([s for s, _ in hyp], [t for _, t in hyp]),
                    collar,
                )
                if ours != meeteval_pairs(ref, hyp, collar):
                    differ.append((seed, collar))
    finally:
        logging.disable(logging.NOTSET)
    assert not differ, differ[:5]
    assert modes["pruned"] >= 50 and modes["banded"] >= 500, modes


@pytest.mark.parametrize("bound", [0, 3, 1000])
def test_a_low_bound_is_corrected_and_a_high_one_changes_nothing(bound: int):
    """The band's bound is checked: too low, the banded cost exceeds it and the band widens."""
    ids: dict[str, int] = {}
    ref = banded.tokens_of(list("abcabcabca"), [(-5.0 + k, -4.0 + k) for k in range(10)], ids)
    hyp = banded.tokens_of(list("bcaxbcax"), [(-5.5 + k, -4.5 + k) for k in range(8)], ids)
    found = banded.align_indices(ref, hyp, bound)
    widest = banded.align_indices(ref, hyp, 18, exact=True)  # every diagonal
    assert found == widest


def test_the_compiled_row_is_the_numpy_row_cell_for_cell():
    """banded._Rows.next (numba, msbench.scoring.matching.row_kernel) against next_numpy, every
    row of seeded cases in both modes, bands both pruned (meeteval's) and diagonal (bounded)."""
    rows_compared = 0
    for seed in range(120):
        ref, hyp = seeded_case(seed)
        ids: dict[str, int] = {}
        r_words = [(w, s.start_time, s.end_time) for s, t in ref for w in t]
        h_words = [(w, s.start_time - 0.5, s.end_time + 0.5) for s, t in hyp for w in t]
        if not r_words or not h_words:
            continue
        r = banded.tokens_of([w for w, _, _ in r_words], [(a, b) for _, a, b in r_words], ids)
        h = banded.tokens_of([w for w, _, _ in h_words], [(a, b) for _, a, b in h_words], ids)
        for bands, pruned in (
            (banded.pruned_bands(r, h), True),
            (banded.diagonal_bands(len(r), len(h), seed % 7), False),
        ):
            engine = banded._Rows(r, h, bands, pruned)
            row = engine.first()
            for i in range(1, len(r) + 1):
                fast, slow = engine.next(row, i), engine.next_numpy(row, i)
                assert fast.tolist() == slow.tolist(), (seed, pruned, i)
                row, rows_compared = fast, rows_compared + 1
    assert rows_compared > 1000


def _long_case(seed: int, tokens: int) -> tuple[banded.Tokens, banded.Tokens]:
    """A long seeded side pair: words every ~0.3 s, a hypothesis jittered, with words dropped,
    substituted and inserted; sorted from 0 (meeteval prunes) or shifted below 0 (it does not)."""
    rng = random.Random(seed)
    ids: dict[str, int] = {}
    vocab = [f"w{k}" for k in range(rng.choice([3, 30, 300]))]
    shift = rng.choice([0.0, -0.4])
    t = 0.0
    r_words, h_words = [], []
    for _ in range(tokens):
        t += rng.uniform(0.0, 0.6)
        word, end = rng.choice(vocab), t + rng.uniform(0.0, 0.5)
        r_words.append((word, t, end))
        if rng.random() > 0.1:
            said = word if rng.random() > 0.15 else rng.choice(vocab)
            jitter = rng.uniform(-0.3, 0.3)
            h_words.append((said, max(0.0, t + jitter) + shift, max(0.0, end + jitter) + shift))
        if rng.random() < 0.05:
            h_words.append((rng.choice(vocab), t + shift, t + 0.2 + shift))
    h_words.sort(key=lambda w: w[1])
    r = banded.tokens_of([w for w, _, _ in r_words], [(a, b) for _, a, b in r_words], ids)
    h = banded.tokens_of([w for w, _, _ in h_words], [(a, b) for _, a, b in h_words], ids)
    return r, h


@pytest.mark.parametrize("recorded", [True, False])
def test_the_compiled_pass_is_the_row_by_row_pass_step_for_step(recorded, monkeypatch):
    """banded.align_indices (forward and backtrace compiled, band_kernel) against
    banded.reference_indices (rows from Python), on seeded long cases in both of meeteval's
    modes, with bounds too low (widened), right, and loose; the backtrace both following the
    choices the forward pass recorded and recomputing blocks from checkpoints."""
    if not recorded:
        monkeypatch.setattr(banded, "MAX_RECORDED_CELLS", 0)
    modes = set()
    for seed in range(24):
        ref, hyp = _long_case(seed, 300 + 150 * (seed % 5))
        if seed % 6 == 5:  # an unbounded collar: every word meets every word
            hyp = banded.Tokens(hyp.symbols, hyp.starts - 1e9, hyp.ends + 1e9)
        modes.add(banded.sorted_timing(hyp.starts))
        for bound in (0, None, 10_000):
            assert banded.align_indices(ref, hyp, bound) == banded.reference_indices(
                ref, hyp, bound
            ), (seed, bound)
    assert modes == {True, False}
