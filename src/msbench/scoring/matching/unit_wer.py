"""cpWER, tcpWER and the speaker-agnostic WER of one unit from its words prepared once.

The same numbers as meeteval's ``cpwer`` and ``tcpwer`` (and as
:mod:`msbench.scoring.matching.permutation`, which drives meeteval's own functions and stays
the reference the tests hold this module to), computed with less repeated work:

1. each side's words are prepared once (:mod:`msbench.scoring.matching.words`);
2. the assignment's distance matrix is meeteval's (``_minimum_permutation_assignment``: the
   ``n x n`` matrix, ``n`` the larger speaker count, padded with the distance to an empty
   stream; scipy's ``linear_sum_assignment`` over it), its cells computed by rapidfuzz
   (cpWER) and by meeteval's time-constrained distance compiled
   (:mod:`msbench.scoring.matching.distances`). The same matrix gives scipy the same
   assignment, ties included;
3. each assigned pair's errors are counted once, in a band bounded by the pair's distance from
   the matrix (kaldialign's path for cpWER, :mod:`msbench.scoring.matching.edit_steps`;
   meeteval's time-constrained alignment for tcpWER, :mod:`msbench.scoring.matching.banded`),
   and the steps are kept (:class:`Counted.steps`) for the word view, which reads them instead
   of aligning again;
4. the speaker-agnostic WER is kaldialign's counts of the two whole streams (every speaker,
   segments by start), in a band bounded by rapidfuzz's distance.

A side without segments is one empty speaker (``all``), as msbench hands meeteval a
placeholder segment.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from msbench.scoring.matching.words import SideWords

#: The speaker of a side without segments (meeteval is handed one empty segment of it).
PLACEHOLDER = "all"

Step = tuple[int | None, int | None]  # word indices into the two SideWords; None: no partner


@dataclass(frozen=True)
class Counted:
    """One metric's counts, its speaker assignment and, per assigned pair, its steps (word
    indices into the two sides' :class:`SideWords`, in alignment order)."""

    errors: int
    length: int
    substitutions: int
    insertions: int
    deletions: int
    assignment: tuple[tuple[str | None, str | None], ...] = ()
    steps: Mapping[tuple[str, str], Sequence[Step]] | None = field(default=None, compare=False)


def _speakers(side: SideWords) -> tuple[tuple[str, ...], list[np.ndarray]]:
    if not side.speakers:
        return (PLACEHOLDER,), [np.zeros(0, dtype=np.int64)]
    return side.speakers, side.streams()


def minimum_assignment(
    matrix: np.ndarray, ref_speakers: Sequence[str], hyp_speakers: Sequence[str]
) -> tuple[tuple[tuple[str | None, str | None], ...], list[tuple[int | None, int | None]], int]:
    """meeteval's ``_minimum_permutation_assignment`` over a padded ``n x n`` matrix: the
    assignment (speaker names, None for padding), the same as indices, and its cost."""
    from scipy.optimize import linear_sum_assignment

    if matrix.size == 0:
        return (), [], 0
    rows, cols = linear_sum_assignment(matrix)
    total = int(matrix[rows, cols].sum())
    named, indices = [], []
    for r, c in itertools.zip_longest(rows.tolist(), cols.tolist()):
        i = r if r is not None and r < len(ref_speakers) else None
        j = c if c is not None and c < len(hyp_speakers) else None
        named.append(
            (None if i is None else ref_speakers[i], None if j is None else hyp_speakers[j])
        )
        indices.append((i, j))
    return tuple(named), indices, total


def _padded(core: np.ndarray, ref_sizes: Sequence[int], hyp_sizes: Sequence[int]) -> np.ndarray:
    """meeteval's square matrix: ``core`` and the distances to an empty stream (a length)."""
    n = max(len(ref_sizes), len(hyp_sizes))
    matrix = np.zeros((n, n), dtype=np.int64)
    matrix[: len(ref_sizes), : len(hyp_sizes)] = core
    matrix[: len(ref_sizes), len(hyp_sizes) :] = np.asarray(ref_sizes, dtype=np.int64)[:, None]
    matrix[len(ref_sizes) :, : len(hyp_sizes)] = np.asarray(hyp_sizes, dtype=np.int64)[None, :]
    return matrix


def cpwer(ref: SideWords, hyp: SideWords, with_steps: bool = False) -> Counted:
    """meeteval's cpWER counts; ``with_steps``: keep each pair's kaldialign path."""
    from msbench.scoring.matching.distances import levenshtein_matrix
    from msbench.scoring.matching.edit_counts import id_counts
    from msbench.scoring.matching.edit_steps import id_steps

    (ref_names, ref_streams), (hyp_names, hyp_streams) = _speakers(ref), _speakers(hyp)
    ref_ids = [ref.symbols[s] for s in ref_streams]
    hyp_ids = [hyp.symbols[s] for s in hyp_streams]
    matrix = _padded(
        levenshtein_matrix(ref_ids, hyp_ids),
        [len(s) for s in ref_ids],
        [len(s) for s in hyp_ids],
    )
    named, indices, total = minimum_assignment(matrix, ref_names, hyp_names)
    counts = np.zeros(3, dtype=np.int64)  # substitutions, insertions, deletions
    steps: dict[tuple[str, str], list[Step]] = {}
    for i, j in indices:
        r = ref_ids[i] if i is not None else np.zeros(0, dtype=np.int64)
        h = hyp_ids[j] if j is not None else np.zeros(0, dtype=np.int64)
        if i is None or j is None or not len(r) or not len(h):
            counts += (0, len(h), len(r))
            found = _unpaired(len(r), len(h))
        elif with_steps:
            found = id_steps(r, h, _cell(matrix, i, j))
            counts += _step_counts(found, r, h)
        else:
            got = id_counts(r, h, _cell(matrix, i, j))
            counts += (got["sub"], got["ins"], got["del"])
            continue
        if with_steps and i is not None and j is not None:
            steps[(ref_names[i], hyp_names[j])] = _global(found, ref_streams[i], hyp_streams[j])
    return _counted(counts, int(ref.symbols.size), total, named, steps if with_steps else None)


def _global(found: Sequence[Step], ref_stream: np.ndarray, hyp_stream: np.ndarray) -> list[Step]:
    """A pair's steps as word indices into the whole sides (from indices into its streams)."""
    return [
        (None if a is None else int(ref_stream[a]), None if b is None else int(hyp_stream[b]))
        for a, b in found
    ]


def _unpaired(ref_words: int, hyp_words: int) -> list[Step]:
    """A pair with an empty side: every reference word deleted, every hypothesis word inserted."""
    return [(a, None) for a in range(ref_words)] + [(None, b) for b in range(hyp_words)]


def _cell(matrix: np.ndarray, i: int, j: int) -> int:
    return int(matrix[i, j])


def _step_counts(steps: Sequence[Step], ref: np.ndarray, hyp: np.ndarray) -> tuple[int, int, int]:
    substitutions = insertions = deletions = 0
    for a, b in steps:
        if a is None:
            insertions += 1
        elif b is None:
            deletions += 1
        elif ref[a] != hyp[b]:
            substitutions += 1
    return substitutions, insertions, deletions


def _counted(
    counts: np.ndarray,
    length: int,
    total: int,
    named: tuple[tuple[str | None, str | None], ...],
    steps: Mapping[tuple[str, str], Sequence[Step]] | None,
) -> Counted:
    s, i, d = (int(v) for v in counts)
    if s + i + d != total:
        raise AssertionError(f"assignment cost {total} but {s + i + d} errors counted")
    return Counted(s + i + d, length, s, i, d, named, steps)


def tcpwer(ref: SideWords, hyp: SideWords, collar: float) -> Counted:
    """meeteval's tcpWER counts (the hypothesis' pseudo-word times widened by ``collar``),
    each pair's steps kept: the counts are read from them."""
    from msbench.scoring.matching.banded import PruneOverflow, Tokens, align_indices
    from msbench.scoring.matching.distances import time_constrained_matrix

    (ref_names, ref_streams), (hyp_names, hyp_streams) = _speakers(ref), _speakers(hyp)
    refs = [Tokens(ref.symbols[s], ref.starts[s], ref.ends[s]) for s in ref_streams]
    hyps = [
        Tokens(hyp.symbols[s], hyp.starts[s] - collar, hyp.ends[s] + collar) for s in hyp_streams
    ]
    core = time_constrained_matrix(
        [(t.symbols, t.starts, t.ends) for t in refs], [(t.symbols, t.starts, t.ends) for t in hyps]
    )
    matrix = _padded(core, [len(t) for t in refs], [len(t) for t in hyps])
    named, indices, total = minimum_assignment(matrix, ref_names, hyp_names)
    counts = np.zeros(3, dtype=np.int64)
    steps: dict[tuple[str, str], list[Step]] = {}
    for i, j in indices:
        r_len = len(refs[i]) if i is not None else 0
        h_len = len(hyps[j]) if j is not None else 0
        if i is None or j is None or not r_len or not h_len:
            counts += (0, h_len, r_len)
            found = _unpaired(r_len, h_len)
        else:
            try:
                found = align_indices(refs[i], hyps[j], _cell(matrix, i, j), exact=True)
            except PruneOverflow:  # meeteval's sums would wrap: its own full-matrix alignment
                found = _meeteval_steps(refs[i], hyps[j])
            counts += _step_counts(found, refs[i].symbols, hyps[j].symbols)
        if i is not None and j is not None:
            steps[(ref_names[i], hyp_names[j])] = _global(found, ref_streams[i], hyp_streams[j])
    return _counted(counts, int(ref.symbols.size), total, named, steps)


def _meeteval_steps(ref: object, hyp: object) -> list[Step]:
    from msbench.scoring.diagnosis.alignment import _meeteval_indices

    return _meeteval_indices(ref, hyp)  # type: ignore[arg-type]


def agnostic_wer(ref: SideWords, hyp: SideWords) -> Counted:
    """kaldialign's counts of every reference word against every hypothesis word, each side
    one stream (segments by start): meeteval's cpWER with one speaker a side."""
    from rapidfuzz.distance import Levenshtein

    from msbench.scoring.matching.edit_counts import id_counts

    cost = Levenshtein.distance(ref.symbols.tolist(), hyp.symbols.tolist())
    got = id_counts(ref.symbols, hyp.symbols, cost)
    counts = np.array([got["sub"], got["ins"], got["del"]], dtype=np.int64)
    return _counted(counts, int(ref.symbols.size), cost, (), None)
