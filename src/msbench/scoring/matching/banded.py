"""meeteval's time-constrained word alignment, computed in memory linear in the tokens.

meeteval 0.4.3 (``levenshtein.h``,
``time_constrained_levenshtein_distance_with_alignment_``) fills the whole
``(R + 1) x (H + 1)`` matrix of 4-byte costs before it backtracks: 10.7 GB
for a 225-minute unit of 53,568 reference tokens. This module computes the
same cells with the same recurrence and follows the same backtrace, so the
alignment is meeteval's, pair for pair (proven against meeteval's ``align``
on seeded cases, ``tests/unit/test_banded_alignment.py``), while holding:

* **a band of each row.** meeteval prunes only when both sides' word starts
  are sorted and not negative (rarely: a hypothesis word within the collar of
  0 s has a negative start), and then the band is its own (cells outside keep
  meeteval's initial ``max_value``; they are reproduced as that value). When
  meeteval does not prune, every cell is computed; here only the diagonals
  ``d = j - i`` with ``|d| + |d - (H - R)| <= E`` for a bound ``E`` on the
  alignment's cost. A cell outside them lies on no alignment of cost
  ``<= E``: its true value ``D`` plus the cost of any way to the end exceeds
  ``E``. The backtrace only steps onto cells of optimal alignments, whose
  optimal prefixes also lie inside, so their values are exact; it compares
  them with neighbours that, when outside, are strictly worse than the step it
  takes, and a larger stand-in value keeps them so. Hence the backtrace is
  unchanged. ``E`` is the minimal cost when the caller knows it (the
  speaker-agnostic WER's error count for the untimed alignment), otherwise a
  guess that is checked: when the banded cost exceeds the guess, the banded
  cost (an upper bound of the minimum) is the next bound.
* **checkpoints.** One row in every ``K`` (``K ~ sqrt(R)``) is kept; the
  backtrace recomputes one block of ``K`` rows at a time. Memory:
  ``(R / K + K) x band width x 8`` bytes; time: two forward passes.

Each row is computed with numpy: the insertion chain ``row[j] = min(t[j],
row[j - 1] + 1)`` is ``cummin(t[k] - k) + k``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from msbench.scoring.matching.row_kernel import next_row

#: meeteval's cell ceiling for unit costs: UINT_MAX - max(cost) (levenshtein.h, ``max_value``).
MAX_VALUE = 2**32 - 2
#: The stand-in of a cell outside the band when meeteval does not prune (above any cost).
OUTSIDE = 2**40
#: Band cells up to which the forward pass records the backtrace's choices (two bits a cell:
#: 256 MB); beyond, it keeps checkpoint rows and the backtrace recomputes blocks of rows.
MAX_RECORDED_CELLS = 1_000_000_000
#: The banded cost bound starts at this share of the known lower bound, plus 16 (then is
#: checked; the diagnosis' lower bound is usually the cost itself).
FIRST_BOUND_FACTOR = 1.02


class PruneOverflow(ArithmeticError):
    """A pruned row reached meeteval's ``max_value`` (meeteval's unsigned sums would wrap)."""


@dataclass(frozen=True)
class Tokens:
    """One side's token ids and (collared, for the hypothesis) timing, in meeteval's order."""

    symbols: np.ndarray  # int64
    starts: np.ndarray  # float64
    ends: np.ndarray  # float64

    def __len__(self) -> int:
        return len(self.symbols)


def sorted_timing(starts: np.ndarray) -> bool:
    """meeteval's ``_timings_sorted``: starts non-decreasing from 0 (a negative start is unsorted).

    >>> sorted_timing(np.array([0.0, 1.0, 1.0])), sorted_timing(np.array([-0.5, 1.0]))
    (True, False)
    """
    return bool(np.all(np.diff(np.concatenate(([0.0], starts))) >= 0))


@dataclass(frozen=True)
class Bands:
    """Per row ``i`` (1..R): computed columns ``[lo, hi)``; ``main`` ends the full recurrence.

    Columns ``[main, hi)`` are meeteval's forward insertions (pruned mode
    only); ``border`` says that column ``lo`` takes only the cell above.
    Row 0 is ``[lo[0], hi[0])`` of insertions.
    """

    lo: np.ndarray
    main: np.ndarray
    hi: np.ndarray
    border: np.ndarray  # bool
    outside: int  # the value of a cell outside its row's band


def pruned_bands(ref: Tokens, hyp: Tokens) -> Bands:
    """meeteval's own band of each row when it prunes (both sides' starts sorted)."""
    rows, columns = len(ref), len(hyp)
    lo = np.zeros(rows + 1, dtype=np.int64)
    main = np.zeros(rows + 1, dtype=np.int64)
    hi = np.zeros(rows + 1, dtype=np.int64)
    hi[0] = main[0] = columns + 1
    ref_end_time = np.maximum.accumulate(ref.ends)
    start = 1
    hyp_ends, hyp_starts = hyp.ends.tolist(), hyp.starts
    for r in range(rows):
        ref_start = float(ref.starts[r])
        while start < columns + 1 and not hyp_ends[start - 1] > ref_start:
            start += 1
        end = max(start, int(np.searchsorted(hyp_starts, ref_end_time[r], side="right")) + 1)
        if r < rows - 1:
            first = max(end, int(np.searchsorted(hyp_starts, ref.ends[r + 1], side="right")) + 1)
            last = first + 1 if first <= columns else columns + 1
        else:
            last = columns + 1
        lo[r + 1], main[r + 1], hi[r + 1] = start - 1, min(end, columns + 1), max(last, end)
    border = np.ones(rows + 1, dtype=bool)
    return Bands(lo, np.minimum(main, hi), hi, border, MAX_VALUE)


def diagonal_bands(rows: int, columns: int, bound: int) -> Bands:
    """Columns of the diagonals ``d`` with ``|d| + |d - (columns - rows)| <= bound``."""
    skew = columns - rows
    low, high = math.ceil((skew - bound) / 2), math.floor((skew + bound) / 2)
    i = np.arange(rows + 1, dtype=np.int64)
    lo = np.clip(i + low, 0, columns)
    hi = np.clip(i + high, -1, columns) + 1
    hi = np.maximum(hi, lo)
    return Bands(lo, hi.copy(), hi, lo == 0, OUTSIDE)


class _Rows:
    """The forward recurrence of meeteval's alignment, one row at a time, inside ``bands``."""

    def __init__(self, ref: Tokens, hyp: Tokens, bands: Bands, pruned: bool) -> None:
        self.ref, self.hyp, self.bands, self.pruned = ref, hyp, bands, pruned

    def first(self) -> np.ndarray:
        lo, hi = int(self.bands.lo[0]), int(self.bands.hi[0])
        return np.arange(lo, hi, dtype=np.int64)

    def _above(self, previous: np.ndarray, p_lo: int, start: int, stop: int) -> np.ndarray:
        """Row ``i - 1`` at columns ``[start, stop)``, ``outside`` beyond its band."""
        out = np.full(stop - start, self.bands.outside, dtype=np.int64)
        a, b = max(start, p_lo), min(stop, p_lo + len(previous))
        if b > a:
            out[a - start : b - start] = previous[a - p_lo : b - p_lo]
        return out

    def next(self, previous: np.ndarray, i: int) -> np.ndarray:
        """Row ``i`` (1-based reference token) from row ``i - 1``, compiled (row_kernel)."""
        bands, r = self.bands, i - 1
        row: np.ndarray = next_row()(
            previous,
            int(bands.lo[i - 1]),
            int(bands.lo[i]),
            int(bands.main[i]),
            int(bands.hi[i]),
            bool(bands.border[i]),
            bands.outside,
            float(self.ref.starts[r]),
            float(self.ref.ends[r]),
            int(self.ref.symbols[r]),
            self.hyp.starts,
            self.hyp.ends,
            self.hyp.symbols,
        )
        if self.pruned and len(row) and int(row.max()) > MAX_VALUE:
            raise PruneOverflow(f"row {i} reaches {int(row.max())}")
        return row

    def next_numpy(self, previous: np.ndarray, i: int) -> np.ndarray:
        """Row ``i`` from row ``i - 1`` with numpy (the insertion chain as a cumulative minimum)."""
        bands, r = self.bands, i - 1
        lo, main, hi = int(bands.lo[i]), int(bands.main[i]), int(bands.hi[i])
        p_lo = int(bands.lo[i - 1])
        row = np.empty(hi - lo, dtype=np.int64)
        if hi == lo:
            return row
        first = lo
        if bands.border[i]:  # only the cell above (meeteval's border, or column 0)
            row[0] = self._above(previous, p_lo, lo, lo + 1)[0] + 1
            first = lo + 1
            left = int(row[0])
        else:
            left = bands.outside
        if main > first:
            above = self._above(previous, p_lo, first - 1, main)
            hyp = slice(first - 1, main - 1)
            meets = (self.ref.starts[r] < self.hyp.ends[hyp]) & (
                self.ref.ends[r] > self.hyp.starts[hyp]
            )
            wrong = (self.hyp.symbols[hyp] != self.ref.symbols[r]).astype(np.int64)
            diagonal = np.where(meets, above[:-1] + wrong, OUTSIDE * 4)
            best = np.minimum(above[1:] + 1, diagonal)
            chain = np.concatenate(([left], best))
            steps = np.arange(len(chain), dtype=np.int64)
            row[first - lo : main - lo] = (np.minimum.accumulate(chain - steps) + steps)[1:]
        if hi > main:  # meeteval's forward insertions
            start = int(row[main - lo - 1]) if main > lo else left
            row[main - lo :] = start + np.arange(1, hi - main + 1, dtype=np.int64)
        if self.pruned and len(row) and int(row.max()) > MAX_VALUE:
            raise PruneOverflow(f"row {i} reaches {int(row.max())}")
        return row


def _forward(rows: _Rows, count: int, every: int) -> tuple[dict[int, np.ndarray], int]:
    """Checkpoints (every ``every`` rows, and row 0) and the final cell's value."""
    keep = {0: rows.first()}
    row = keep[0]
    for i in range(1, count + 1):
        row = rows.next(row, i)
        if i % every == 0:
            keep[i] = row
    reaches_end = len(row) and int(rows.bands.hi[count]) == len(rows.hyp) + 1
    return keep, int(row[-1]) if reaches_end else rows.bands.outside


def _value(rows: dict[int, np.ndarray], bands: Bands, i: int, j: int) -> int:
    lo = int(bands.lo[i])
    row = rows[i]
    if lo <= j < lo + len(row):
        return int(row[j - lo])
    return bands.outside


def _backtrace(
    engine: _Rows, checkpoints: dict[int, np.ndarray], every: int
) -> list[tuple[int | None, int | None]]:
    """meeteval's backtrace (levenshtein.h), block by block from the checkpoints."""
    ref, hyp, bands = engine.ref, engine.hyp, engine.bands
    wrap = 2**32 if engine.pruned else None  # meeteval's unsigned sums
    i, j = len(ref), len(hyp)
    steps: list[tuple[int | None, int | None]] = []
    block: dict[int, np.ndarray] = {}
    block_start = -1

    def cost(value: int, add: int) -> int:
        total = value + add
        return total % wrap if wrap else total

    while i > 0 or j > 0:
        if i == 0:
            j -= 1
            steps.append((None, j))
            continue
        if j == 0:
            i -= 1
            steps.append((i, None))
            continue
        start = ((i - 1) // every) * every
        if start != block_start:
            block = {start: checkpoints[start]}
            for k in range(start + 1, min(start + every, len(ref)) + 1):
                block[k] = engine.next(block[k - 1], k)
            block_start = start
        insertion = cost(_value(block, bands, i, j - 1), 1)
        deletion = cost(_value(block, bands, i - 1, j), 1)
        if ref.starts[i - 1] < hyp.ends[j - 1] and ref.ends[i - 1] > hyp.starts[j - 1]:
            wrong = int(ref.symbols[i - 1] != hyp.symbols[j - 1])
            diagonal = cost(_value(block, bands, i - 1, j - 1), wrong)
            if diagonal < min(deletion, insertion):
                i, j = i - 1, j - 1
                steps.append((i, j))
                continue
        if deletion < insertion:
            i -= 1
            steps.append((i, None))
        else:
            j -= 1
            steps.append((None, j))
    steps.reverse()
    return steps


def align_indices(
    ref: Tokens, hyp: Tokens, lower_bound: int | None = None, exact: bool = False
) -> list[tuple[int | None, int | None]]:
    """meeteval's alignment of ``ref`` against ``hyp`` (token indices; None: no partner).

    ``lower_bound``: a known lower bound of the alignment's cost (for the untimed
    alignment, its cost itself: ``exact``). Raises :class:`PruneOverflow` where
    meeteval's unsigned sums would wrap (never seen; the caller falls back).
    """
    rows, columns = len(ref), len(hyp)
    if rows == 0:
        return [(None, j) for j in range(columns)]
    if columns == 0:
        return [(i, None) for i in range(rows)]
    every = max(16, math.isqrt(rows))
    if sorted_timing(ref.starts) and sorted_timing(hyp.starts):
        return _compiled(ref, hyp, pruned_bands(ref, hyp), True, every, None)[1]
    floor = abs(columns - rows)
    bound = max(floor, lower_bound if lower_bound is not None else floor)
    if not exact:
        bound = max(floor, math.ceil(bound * FIRST_BOUND_FACTOR) + 16)
    while True:
        bound = min(bound, rows + columns)
        value, steps = _compiled(
            ref, hyp, diagonal_bands(rows, columns, bound), False, every, bound
        )
        if value <= bound:
            return steps
        bound = value  # an upper bound of the minimum: its band holds every optimal path


def align_within(
    ref: Tokens, hyp: Tokens, at_most: int
) -> list[tuple[int | None, int | None]] | None:
    """:func:`align_indices` when the alignment costs at most ``at_most``, else None (one
    band of that bound; the diagnosis asks whether an alignment reaches a known minimum)."""
    rows, columns = len(ref), len(hyp)
    if not rows or not columns or (sorted_timing(ref.starts) and sorted_timing(hyp.starts)):
        return align_indices(ref, hyp, at_most)
    bound = min(max(at_most, abs(columns - rows)), rows + columns)
    every = max(16, math.isqrt(rows))
    value, steps = _compiled(ref, hyp, diagonal_bands(rows, columns, bound), False, every, bound)
    return steps if value <= at_most else None


def _compiled(
    ref: Tokens, hyp: Tokens, bands: Bands, pruned: bool, every: int, bound: int | None
) -> tuple[int, list[tuple[int | None, int | None]]]:
    """The forward pass and the backtrace compiled (:mod:`msbench.scoring.matching.
    band_kernel`): the final cell's value and the steps (none where the value exceeds
    ``bound``: the caller widens the band)."""
    from msbench.scoring.matching import band_kernel, recorded_kernel

    arrays = (ref.starts, ref.ends, ref.symbols, hyp.starts, hyp.ends, hyp.symbols)
    bands_args = (bands.lo, bands.main, bands.hi, bands.border, bands.outside)
    offsets = np.zeros(len(bands.lo) + 1, dtype=np.int64)  # each row's first byte
    np.cumsum((bands.hi - bands.lo + 3) // 4, out=offsets[1:])
    if offsets[-1] * 4 <= MAX_RECORDED_CELLS:  # one pass; the backtrace follows recorded choices
        choices, value, overflow = recorded_kernel.forward_recording(
            *bands_args, pruned, offsets, *arrays
        )
        if overflow:
            raise PruneOverflow("a pruned row reaches meeteval's max_value")
        if bound is not None and value > bound:
            return int(value), []
        step_ref, step_hyp, complete = recorded_kernel.follow(
            bands.lo, bands.hi, offsets, choices, len(hyp)
        )
        if complete:
            return int(value), _steps(step_ref, step_hyp)
    checkpoints, value, overflow = band_kernel.forward(*bands_args, pruned, every, *arrays)
    if overflow:
        raise PruneOverflow("a pruned row reaches meeteval's max_value")
    if bound is not None and value > bound:
        return int(value), []
    step_ref, step_hyp = band_kernel.backtrace(*bands_args, every, checkpoints, *arrays)
    return int(value), _steps(step_ref, step_hyp)


def _steps(step_ref: np.ndarray, step_hyp: np.ndarray) -> list[tuple[int | None, int | None]]:
    return [
        (None if a < 0 else int(a), None if b < 0 else int(b))
        for a, b in zip(step_ref.tolist(), step_hyp.tolist(), strict=True)
    ]


def reference_indices(
    ref: Tokens, hyp: Tokens, lower_bound: int | None = None, exact: bool = False
) -> list[tuple[int | None, int | None]]:
    """:func:`align_indices` driven row by row from Python (``_Rows``): the reference the
    compiled pass is held to, step for step."""
    rows, columns = len(ref), len(hyp)
    if rows == 0:
        return [(None, j) for j in range(columns)]
    if columns == 0:
        return [(i, None) for i in range(rows)]
    every = max(16, math.isqrt(rows))
    if sorted_timing(ref.starts) and sorted_timing(hyp.starts):
        engine = _Rows(ref, hyp, pruned_bands(ref, hyp), pruned=True)
        checkpoints, _ = _forward(engine, rows, every)
        return _backtrace(engine, checkpoints, every)
    floor = abs(columns - rows)
    bound = max(floor, lower_bound if lower_bound is not None else floor)
    if not exact:
        bound = max(floor, math.ceil(bound * FIRST_BOUND_FACTOR) + 16)
    while True:
        bound = min(bound, rows + columns)
        engine = _Rows(ref, hyp, diagonal_bands(rows, columns, bound), pruned=False)
        checkpoints, value = _forward(engine, rows, every)
        if value <= bound:
            return _backtrace(engine, checkpoints, every)
        bound = value  # an upper bound of the minimum: its band holds every optimal path


def tokens_of(words: Sequence[Any], timing: Sequence[Any], ids: dict[Any, int]) -> Tokens:
    """Token ids (shared ``ids`` across both sides) and float timing arrays."""
    symbols = np.fromiter((ids.setdefault(w, len(ids)) for w in words), dtype=np.int64)
    times = np.asarray(timing, dtype=np.float64).reshape(-1, 2)
    return Tokens(symbols, np.ascontiguousarray(times[:, 0]), np.ascontiguousarray(times[:, 1]))
