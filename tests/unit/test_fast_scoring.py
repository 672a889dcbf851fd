"""The WER family computed once a unit (msbench.scoring.matching.unit_wer) equals meeteval's.

The reference is meeteval itself: its ``preprocess`` for the word streams, its
``levenshtein_distance`` and ``time_constrained_levenshtein_distance`` for the distances, and
its cpWER / tcpWER driven by meeteval's own ``_minimum_permutation_assignment``
(:mod:`msbench.scoring.matching.permutation`). 1,000 seeded sessions are built to tie: a
vocabulary of two or three words, speakers whose streams are copies of each other (so that two
assignments cost the same), speakers of empty segments only, zero-length segments, words at the
meeting's start (a collared hypothesis time below 0: meeteval's unpruned mode) and sessions that
start late (its pruned mode).
"""

from __future__ import annotations

import logging
import random

import numpy as np
import pytest

from msbench.records import Segment
from msbench.scoring.matching import permutation, unit_wer
from msbench.scoring.matching.distance_kernel import time_constrained
from msbench.scoring.matching.distances import levenshtein_matrix
from msbench.scoring.matching.words import CHARACTER_BASED, CHARACTER_BASED_POINTS, side_words
from msbench.scoring.wer import seglst

Side = tuple[list[Segment], list[list[str]]]


def tied_session(seed: int) -> tuple[Side, Side]:
    rng = random.Random(seed)
    vocab = ["a", "bb", "ccc"][: rng.randint(2, 3)]
    offset = rng.choice([0.0, 0.0, 40.0])

    def side(speakers: list[str], copies: bool) -> Side:
        segments, tokens = [], []
        base: list[tuple[float, float, list[str]]] = []
        for _ in range(rng.randint(0, 8)):
            start = offset + round(rng.uniform(0, 30), 1)
            end = start + rng.choice([0.0, round(rng.uniform(0.3, 6), 1)])
            base.append((start, end, [rng.choice(vocab) for _ in range(rng.randint(0, 5))]))
        for speaker in speakers:
            if copies and rng.random() < 0.6:  # the same words again: tied assignments
                rows = [(s + rng.choice([0, 0.2]), e, list(w)) for s, e, w in base]
            elif rng.random() < 0.15:  # a speaker of empty segments only
                rows = [(offset + 1.0, offset + 2.0, [])]
            else:
                rows = [
                    (s, e, [rng.choice(vocab) for _ in range(rng.randint(0, 5))])
                    for s, e, _ in base[: rng.randint(0, len(base))]
                ]
            for s, e, w in rows:
                segments.append(Segment("s", s, max(s, e), speaker, " ".join(w)))
                tokens.append(w)
        order = list(range(len(segments)))
        rng.shuffle(order)
        return [segments[k] for k in order], [tokens[k] for k in order]

    ref = side([f"R{k}" for k in range(rng.randint(1, 5))], copies=True)
    hyp = side([f"H{k}" for k in range(rng.randint(0, 6))], copies=rng.random() < 0.7)
    return ref, hyp


def both(ref: Side, hyp: Side):
    ids: dict[str, int] = {}
    return (
        side_words(*ref, CHARACTER_BASED, ids),
        side_words(*hyp, CHARACTER_BASED_POINTS, ids),
    )


def counts(result) -> tuple[int, int, int, int, int]:
    return (result.errors, result.length, result.substitutions, result.insertions, result.deletions)


def test_the_word_streams_are_meetevals_preprocessing():
    from meeteval.io import SegLST
    from meeteval.wer.preprocess import preprocess

    compared = 0
    for seed in range(300):
        ref, hyp = tied_session(seed)
        if not ref[0] or not hyp[0]:
            continue
        ours = both(ref, hyp)
        for (segments, tokens), words, timing in (
            (ref, ours[0], CHARACTER_BASED),
            (hyp, ours[1], CHARACTER_BASED_POINTS),
        ):
            theirs, _, _, _ = preprocess(
                seglst(segments, "s", tokens),
                SegLST([]),
                keep_keys=("start_time", "end_time", "words", "speaker"),
                remove_empty_segments=False,
                reference_sort="segment",
                reference_pseudo_word_level_timing=timing,
                segment_representation="word",
            )
            grouped = theirs.groupby("speaker")
            assert tuple(grouped) == words.speakers, seed
            for k, stream in enumerate(words.streams()):
                kept = [w for w in grouped[words.speakers[k]] if w["words"]]
                assert [w["words"] for w in kept] == [
                    tokens[words.segment[i]][words.position[i]] for i in stream
                ]
                assert [(w["start_time"], w["end_time"]) for w in kept] == list(
                    zip(words.starts[stream].tolist(), words.ends[stream].tolist(), strict=True)
                )
                compared += len(kept)
    assert compared > 2000


def _timed_words(rng: random.Random, count: int, shift: float) -> list[tuple[str, float, float]]:
    """Words every 0 to 2 s, a tenth displaced, sorted or not, widened by ``shift``."""
    t, out = rng.choice([0.0, 3.0]), []
    for _ in range(count):
        t += rng.choice([0.0, 0.0, rng.uniform(0, 2)])
        start = t + (rng.uniform(-1, 1) if rng.random() < 0.1 else 0.0)
        out.append((rng.choice("abcd"), start - shift, start + rng.uniform(0, 3) + shift))
    if rng.random() < 0.5:
        out.sort(key=lambda word: word[1])
    return out


def _arrays(side: list[tuple[str, float, float]], ids: dict[str, int]) -> tuple[np.ndarray, ...]:
    return (
        np.array([ids.setdefault(w, len(ids)) for w, _, _ in side], dtype=np.int64),
        np.array([a for _, a, _ in side], dtype=np.float64),
        np.array([b for _, _, b in side], dtype=np.float64),
    )


def _meeteval_distance(ref, hyp, prune: str | bool = "auto") -> int:
    from meeteval.wer.matching.cy_levenshtein import time_constrained_levenshtein_distance

    return time_constrained_levenshtein_distance(
        [w for w, _, _ in ref], [w for w, _, _ in hyp],
        [(a, b) for _, a, b in ref], [(a, b) for _, a, b in hyp], prune=prune,
    )  # fmt: skip


def test_the_time_constrained_distance_is_meetevals_in_both_of_its_modes():
    """Seeded pairs, sorted from 0 (meeteval prunes) and not; the pruned distance also equals
    meeteval's unpruned one on every case here."""
    modes = {True: 0, False: 0}
    for seed in range(3000):
        rng = random.Random(seed)
        ref = _timed_words(rng, rng.randint(0, 30), 0.0)
        hyp = _timed_words(rng, rng.randint(0, 30), rng.choice([0.0, 0.5, 5.0, -0.3]))
        theirs = _meeteval_distance(ref, hyp)
        ids: dict[str, int] = {}
        (r, rs, re_), (h, hs, he) = _arrays(ref, ids), _arrays(hyp, ids)
        assert time_constrained(r, h, rs, re_, hs, he) == theirs, seed
        if ref and hyp:
            pruned = bool(np.all(np.diff(np.concatenate(([0.0], rs))) >= 0)) and bool(
                np.all(np.diff(np.concatenate(([0.0], hs))) >= 0)
            )
            modes[pruned] += 1
            assert _meeteval_distance(ref, hyp, prune=False) == theirs, seed
    assert modes[True] > 300 and modes[False] > 300, modes


def test_the_levenshtein_matrix_is_meetevals():
    from meeteval.wer.matching.cy_levenshtein import levenshtein_distance

    rng = random.Random(5)
    refs = [np.array([rng.randrange(4) for _ in range(rng.randint(0, 300))]) for _ in range(6)]
    hyps = [np.array([rng.randrange(4) for _ in range(rng.randint(0, 300))]) for _ in range(7)]
    theirs = [[levenshtein_distance(r.tolist(), h.tolist()) for h in hyps] for r in refs]
    assert levenshtein_matrix(refs, hyps).tolist() == theirs


@pytest.mark.parametrize("block", range(4))
def test_cpwer_tcpwer_and_wer_counts_and_assignments_are_meetevals_on_tied_sessions(block):
    """1,000 seeded sessions (250 per block): counts, S/I/D and the speaker assignment equal
    meeteval's, and some of them have several assignments of the least cost."""
    logging.disable(logging.WARNING)
    ties = 0
    try:
        for seed in range(250 * block, 250 * (block + 1)):
            (r_seg, r_tok), (h_seg, h_tok) = tied_session(seed)
            ref, hyp = seglst(r_seg, "s", r_tok), seglst(h_seg, "s", h_tok)
            words = both((r_seg, r_tok), (h_seg, h_tok))
            cp_ref = permutation.cpwer(ref, hyp)
            cp = unit_wer.cpwer(*words, with_steps=seed % 2 == 0)
            assert counts(cp) == counts(cp_ref), seed
            assert cp.assignment == tuple(cp_ref.assignment), seed
            tcp_ref = permutation.tcpwer(ref, hyp, 5.0, CHARACTER_BASED, CHARACTER_BASED_POINTS)
            tcp = unit_wer.tcpwer(*words, 5.0)
            assert counts(tcp) == counts(tcp_ref), seed
            assert tcp.assignment == tuple(tcp_ref.assignment), seed
            one_ref = seglst(r_seg, "s", r_tok, one_speaker=True)
            one_hyp = seglst(h_seg, "s", h_tok, one_speaker=True)
            assert counts(unit_wer.agnostic_wer(*words)) == counts(
                permutation.agnostic_wer(one_ref, one_hyp)
            ), seed
            ties += _tied(words)
    finally:
        logging.disable(logging.NOTSET)
    assert ties >= 20, ties


def _tied(words) -> bool:
    """Whether meeteval's padded cpWER matrix has two assignments of the least cost."""
    import itertools

    ref, hyp = words
    refs = [ref.symbols[s] for s in ref.streams()]
    hyps = [hyp.symbols[s] for s in hyp.streams()]
    if len(refs) < 2 and len(hyps) < 2:
        return False
    m = unit_wer._padded(
        levenshtein_matrix(refs, hyps), [len(r) for r in refs], [len(h) for h in hyps]
    )
    costs = [sum(m[i, j] for i, j in enumerate(p)) for p in itertools.permutations(range(len(m)))]
    return costs.count(min(costs)) > 1


def test_the_kept_steps_count_what_the_counts_say():
    """Each pair's kept steps (for the word view) give the pair counts the metric reports."""
    for seed in range(60):
        words = both(*tied_session(seed))
        for counted in (unit_wer.cpwer(*words, with_steps=True), unit_wer.tcpwer(*words, 5.0)):
            ref, hyp = words
            s = i = d = 0
            for steps in counted.steps.values():
                for a, b in steps:
                    i += a is None
                    d += b is None
                    s += a is not None and b is not None and ref.symbols[a] != hyp.symbols[b]
            paired = {r for r, h in counted.assignment if r is not None and h is not None}
            unpaired_ref = sum(
                len(ref.of_speaker(k)) for k, name in enumerate(ref.speakers) if name not in paired
            )
            paired_hyp = {h for r, h in counted.assignment if r is not None and h is not None}
            unpaired_hyp = sum(
                len(hyp.of_speaker(k))
                for k, name in enumerate(hyp.speakers)
                if name not in paired_hyp
            )
            assert (s, i + unpaired_hyp, d + unpaired_ref) == (
                counted.substitutions,
                counted.insertions,
                counted.deletions,
            ), seed


def test_threads_change_no_number_and_no_word(tmp_path):
    """A 25-minute, 6-speaker session (above the threading threshold) scored on one thread and
    on three: the same JSON and the same word view, byte for byte."""
    import sys

    from msbench import score
    from msbench.scoring.threads import LARGE_UNIT_TOKENS
    from tests.helpers.paths import REPO, SHARED_DATA, require_shared

    require_shared(SHARED_DATA / "ami-annotations")  # the sessions' real AMI timing
    sys.path.insert(0, str(REPO / "benchmarks"))
    from long_transcripts import write_session

    _, _, tokens = write_session(tmp_path, 25, 6, "en")
    assert tokens > LARGE_UNIT_TOKENS
    found = {}
    for threads in (1, 3):
        report = score(tmp_path / "ref.stm", tmp_path / "hyp.stm", threads=threads,
                       word_view=tmp_path / f"view{threads}")  # fmt: skip
        found[threads] = (
            report.to_dict(),
            (tmp_path / f"view{threads}" / "long.json").read_bytes(),
        )
    assert found[1] == found[3]
