"""The banded alignment's forward pass recording the backtrace's choices, and the backtrace
that follows them (:mod:`msbench.scoring.matching.banded` states the algorithm).

:func:`forward_recording` computes the rows :mod:`msbench.scoring.matching.band_kernel`'s
:func:`~msbench.scoring.matching.band_kernel.forward` computes and, at every band cell, the
choice meeteval's backtrace would make there (two bits), so :func:`follow` walks back without
recomputing a row: one pass instead of two. Each row is four passes over plain views (numba
vectorises a loop over a view; an offset index defeats it): the cell above plus one, the
diagonal where the words meet (only the hypothesis words :func:`_meeting` finds can), the
insertion chain (the one serial pass), the choices. About 1.1 ns a cell on one core, against
3.6 for the row-at-a-time kernel; ``tests/unit/test_banded_alignment.py`` holds both to the
Python reference step for step and to meeteval.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from msbench.scoring.matching.band_kernel import DELETION, DIAGONAL, INSERTION, MAX_VALUE, _choice
from msbench.scoring.matching.row_kernel import BLOCKED


@njit(cache=True, nogil=True, inline="always")
def _at(previous: np.ndarray, k: int, outside: int) -> int:
    """Row ``i - 1``'s cell ``k`` (from its band's first column), ``outside`` beyond it."""
    return int(previous[k]) if 0 <= k < len(previous) else outside


@njit(cache=True, nogil=True)
def _diagonals(
    best: np.ndarray,
    previous: np.ndarray,
    shift: int,
    lo: int,
    a: int,
    b: int,
    outside: int,
    everywhere: bool,
    ref_start: float,
    ref_end: float,
    ref_symbol: int,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
    hyp_symbols: np.ndarray,
) -> None:
    """``best[k] = min(best[k], corner + wrong)`` for the cells ``[a, b)`` whose words meet;
    the interior (corner inside row ``i - 1``) over views, without index arithmetic."""
    inner_a = min(max(a, 1 - shift), b)
    inner_b = max(min(b, len(previous) - shift + 1), inner_a)
    for k in range(a, b):
        if inner_a <= k < inner_b:
            continue
        h = lo + k - 1
        if everywhere or (ref_start < hyp_ends[h] and ref_end > hyp_starts[h]):
            wrong = 1 if hyp_symbols[h] != ref_symbol else 0
            best[k] = min(best[k], _at(previous, k + shift - 1, outside) + wrong)
    into = best[inner_a:inner_b]
    corner = previous[inner_a + shift - 1 : inner_b + shift - 1]
    symbols = hyp_symbols[lo + inner_a - 1 : lo + inner_b - 1]
    if everywhere:
        for t in range(len(into)):
            into[t] = min(into[t], corner[t] + np.int64(symbols[t] != ref_symbol))
        return
    starts = hyp_starts[lo + inner_a - 1 : lo + inner_b - 1]
    ends = hyp_ends[lo + inner_a - 1 : lo + inner_b - 1]
    for t in range(len(into)):
        apart = 1 - np.int64((ref_start < ends[t]) & (ref_end > starts[t]))
        into[t] = min(into[t], corner[t] + np.int64(symbols[t] != ref_symbol) + apart * BLOCKED)


@njit(cache=True, nogil=True)
def _choices_where_meeting(
    code: np.ndarray,
    row: np.ndarray,
    previous: np.ndarray,
    shift: int,
    lo: int,
    a: int,
    b: int,
    outside: int,
    everywhere: bool,
    ref_start: float,
    ref_end: float,
    ref_symbol: int,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
    hyp_symbols: np.ndarray,
) -> None:
    """:func:`_choice` for the cells ``[a, b)`` where words may meet; the interior (left,
    above and corner all inside their rows) over views, without branches."""
    inner_a = min(max(a, 1, 1 - shift), b)
    inner_b = max(min(b, len(previous) - shift), inner_a)
    for k in range(a, b):
        if inner_a <= k < inner_b:
            continue
        h = lo + k - 1
        meets = everywhere or (ref_start < hyp_ends[h] and ref_end > hyp_starts[h])
        wrong = 1 if hyp_symbols[h] != ref_symbol else 0
        on_left = row[k - 1] if k > 0 else outside
        code[k] = _choice(on_left, _at(previous, k + shift, outside),
                          _at(previous, k + shift - 1, outside), meets, wrong)  # fmt: skip
    into, lefts = code[inner_a:inner_b], row[inner_a - 1 : inner_b - 1]
    above = previous[inner_a + shift : inner_b + shift]
    corner = previous[inner_a + shift - 1 : inner_b + shift - 1]
    symbols = hyp_symbols[lo + inner_a - 1 : lo + inner_b - 1]
    starts = hyp_starts[lo + inner_a - 1 : lo + inner_b - 1]
    ends = hyp_ends[lo + inner_a - 1 : lo + inner_b - 1]
    for t in range(len(into)):
        meets = 1 if everywhere else np.int64((ref_start < ends[t]) & (ref_end > starts[t]))
        cheaper = min(above[t], lefts[t]) + 1
        diagonal = meets * np.int64(corner[t] + np.int64(symbols[t] != ref_symbol) < cheaper)
        choice = INSERTION - np.int64(above[t] < lefts[t])
        into[t] = choice - diagonal * (choice - DIAGONAL)


@njit(cache=True, nogil=True)
def _recorded_row(
    previous: np.ndarray,
    p_lo: int,
    lo: int,
    main: int,
    hi: int,
    border: bool,
    outside: int,
    ref_start: float,
    ref_end: float,
    ref_symbol: int,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
    hyp_symbols: np.ndarray,
    choices: np.ndarray,
    first_byte: int,
    scratch: tuple[np.ndarray, np.ndarray],
    meeting: tuple[int, int],
    everywhere: bool,
) -> np.ndarray:
    """Row ``i`` as :func:`msbench.scoring.matching.row_kernel.next_row` computes it, and the
    backtrace's choice at each of its cells, four to a byte from ``first_byte``.

    ``meeting``: the hypothesis words ``[a, b)`` outside which none meets the reference word in
    time (:func:`_meeting`; ``everywhere``: every word meets every word, as at an unbounded
    collar, so no time is compared); outside them a cell is the cheaper of the cell above and
    the one to its left, plus one, and its choice the deletion where the cell above is strictly
    cheaper.
    The insertion chain ``row[j] = min(best, row[j - 1] + 1)`` is the one serial pass.
    ``scratch``: two arrays of work space, at least the band's width each.
    """
    n = hi - lo
    row = np.empty(n, dtype=np.int64)
    if n == 0:
        return row
    best, code = scratch
    shift = lo - p_lo  # column lo + k is row i - 1's cell k + shift
    _above_plus_one(best, previous, shift, n, outside)
    # the cells whose hypothesis word (column j = h + 1) may meet the reference word
    first_meet = min(max(meeting[0] + 1 - lo, 1 if lo == 0 else 0), n)
    last_meet = max(min(meeting[1] + 1 - lo, main - lo), first_meet)
    _diagonals(best, previous, shift, lo, first_meet, last_meet, outside, everywhere,
               ref_start, ref_end, ref_symbol, hyp_starts, hyp_ends, hyp_symbols)  # fmt: skip
    border_cell = _at(previous, shift, outside) + 1 if border else -1
    _insertion_chain(row, best, main - lo, border_cell, outside)
    _insertion_or_deletion(code, best, row, n, outside)
    _choices_where_meeting(code, row, previous, shift, lo, first_meet,
                           min(meeting[1] + 1 - lo, n), outside, everywhere, ref_start,
                           ref_end, ref_symbol, hyp_starts, hyp_ends, hyp_symbols)  # fmt: skip
    _pack(code, n, choices, first_byte)
    return row


@njit(cache=True, nogil=True)
def _above_plus_one(
    best: np.ndarray, previous: np.ndarray, shift: int, n: int, outside: int
) -> None:
    """``best[k]``: row ``i - 1``'s cell above column ``lo + k``, plus one (``outside`` beyond
    its band); the interior over views, so that the loop has no index arithmetic."""
    first_up = min(max(0, -shift), n)
    last_up = max(min(n, len(previous) - shift), first_up)
    for k in range(first_up):
        best[k] = outside + 1
    above, into = previous[first_up + shift : last_up + shift], best[first_up:last_up]
    for t in range(len(into)):
        into[t] = above[t] + 1
    for k in range(last_up, n):
        best[k] = outside + 1


@njit(cache=True, nogil=True)
def _insertion_chain(
    row: np.ndarray, best: np.ndarray, main: int, border_cell: int, outside: int
) -> None:
    """``row[k] = min(best[k], row[k - 1] + 1)`` up to ``main``, then meeteval's forward
    insertions ``row[k - 1] + 1``; ``border_cell`` (not -1): cell 0 takes only the cell above
    (meeteval's border, or column 0). The one serial pass."""
    left, first = outside, 0
    if border_cell >= 0:
        row[0] = border_cell
        left, first = border_cell, 1
    for k in range(first, main):
        left = min(best[k], left + 1)
        row[k] = left
    for k in range(max(first, main), len(row)):
        left += 1
        row[k] = left


@njit(cache=True, nogil=True)
def _insertion_or_deletion(
    code: np.ndarray, best: np.ndarray, row: np.ndarray, n: int, outside: int
) -> None:
    """Each cell's choice where its words do not meet (``best`` there is still the cell above
    plus one): the deletion where strictly cheaper than the insertion, else the insertion."""
    code[0] = INSERTION - np.int64(best[0] - 1 < outside)  # (column 0's is never read)
    codes, bests, lefts = code[1:n], best[1:n], row[0 : n - 1]
    for t in range(n - 1):
        codes[t] = INSERTION - np.int64(bests[t] - 1 < lefts[t])


@njit(cache=True, nogil=True)
def _pack(code: np.ndarray, n: int, choices: np.ndarray, first_byte: int) -> None:
    """The ``n`` choices (two bits each) four to a byte, from ``choices[first_byte]``."""
    full = n // 4
    packed_to = choices[first_byte : first_byte + full]
    for b in range(full):
        k = 4 * b
        packed_to[b] = code[k] | code[k + 1] << 2 | code[k + 2] << 4 | code[k + 3] << 6
    if n > 4 * full:
        packed = 0
        for k in range(4 * full, n):
            packed |= code[k] << (2 * (k - 4 * full))
        choices[first_byte + full] = packed


@njit(cache=True, nogil=True)
def _meeting(
    ref_start: float, ref_end: float, end_so_far: np.ndarray, start_from: np.ndarray
) -> tuple[int, int]:
    """Hypothesis words ``[a, b)`` outside which none meets ``[ref_start, ref_end]`` in time:
    before ``a`` every word ends by ``ref_start`` (``end_so_far``: the running maximum of the
    ends), from ``b`` on every word starts at ``ref_end`` or later (``start_from``: the running
    minimum of the starts from the end). Exact for words in any order."""
    a = np.searchsorted(end_so_far, ref_start, side="right")
    b = np.searchsorted(start_from, ref_end, side="left")
    return int(a), int(max(a, b))


@njit(cache=True, nogil=True)
def forward_recording(
    lo: np.ndarray,
    main: np.ndarray,
    hi: np.ndarray,
    border: np.ndarray,
    outside: int,
    pruned: bool,
    offsets: np.ndarray,
    ref_starts: np.ndarray,
    ref_ends: np.ndarray,
    ref_symbols: np.ndarray,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
    hyp_symbols: np.ndarray,
) -> tuple[np.ndarray, int, bool]:
    """The forward pass recording the backtrace's choice at every band cell (two bits each;
    row ``i`` from byte ``offsets[i]``): the choices, the final cell, and whether a pruned row
    reached meeteval's ceiling. The backtrace then follows the choices (:func:`follow`)
    instead of recomputing blocks of rows."""
    rows = len(ref_symbols)
    choices = np.zeros(offsets[rows + 1], dtype=np.uint8)
    width = max(1, (hi - lo).max())
    scratch = (np.empty(width, dtype=np.int64), np.empty(width, dtype=np.int64))
    end_so_far = np.empty(len(hyp_ends))
    start_from = np.empty(len(hyp_starts))
    running = -np.inf
    for h in range(len(hyp_ends)):
        running = max(running, hyp_ends[h])
        end_so_far[h] = running
    running = np.inf
    for h in range(len(hyp_starts) - 1, -1, -1):
        running = min(running, hyp_starts[h])
        start_from[h] = running
    everywhere = (
        len(ref_starts) > 0
        and len(hyp_starts) > 0
        and ref_starts.max() < hyp_ends.min()
        and ref_ends.min() > hyp_starts.max()
    )
    row = np.arange(lo[0], hi[0])
    for i in range(1, rows + 1):
        meeting = _meeting(ref_starts[i - 1], ref_ends[i - 1], end_so_far, start_from)
        row = _recorded_row(row, lo[i - 1], lo[i], main[i], hi[i], border[i], outside,
                            ref_starts[i - 1], ref_ends[i - 1], ref_symbols[i - 1],
                            hyp_starts, hyp_ends, hyp_symbols, choices, offsets[i],
                            scratch, meeting, everywhere)  # fmt: skip
        if pruned and len(row) > 0 and row.max() > MAX_VALUE:
            return choices, outside, True
    columns = len(hyp_symbols)
    final = row[len(row) - 1] if len(row) > 0 and hi[rows] == columns + 1 else outside
    return choices, final, False


@njit(cache=True, nogil=True)
def follow(
    lo: np.ndarray, hi: np.ndarray, offsets: np.ndarray, choices: np.ndarray, columns: int
) -> tuple[np.ndarray, np.ndarray, bool]:
    """The backtrace from the recorded choices: the steps (reference, hypothesis index; -1:
    no partner) in alignment order, and False where it met a cell outside the band (the
    caller then runs :func:`backtrace`, which reads such cells as meeteval does)."""
    rows = len(lo) - 1
    step_ref = np.empty(rows + columns, dtype=np.int64)
    step_hyp = np.empty(rows + columns, dtype=np.int64)
    n = 0
    i, j = rows, columns
    while i > 0 or j > 0:
        if i == 0:
            j -= 1
            step_ref[n], step_hyp[n] = -1, j
        elif j == 0:
            i -= 1
            step_ref[n], step_hyp[n] = i, -1
        else:
            if not lo[i] <= j < hi[i]:
                return step_ref[:0], step_hyp[:0], False
            k = j - lo[i]
            choice = (choices[offsets[i] + (k >> 2)] >> ((k & 3) * 2)) & 3
            if choice == DIAGONAL:
                i, j = i - 1, j - 1
                step_ref[n], step_hyp[n] = i, j
            elif choice == DELETION:
                i -= 1
                step_ref[n], step_hyp[n] = i, -1
            else:
                j -= 1
                step_ref[n], step_hyp[n] = -1, j
        n += 1
    return step_ref[:n][::-1].copy(), step_hyp[:n][::-1].copy(), True
