"""The whole banded alignment compiled: forward pass, checkpoints and backtrace in one numba
function each (:mod:`msbench.scoring.matching.banded` states the algorithm).

:mod:`~msbench.scoring.matching.banded` drives the same recurrence row by row from Python
(``_Rows``, ``_forward``, ``_backtrace``); that version stays as the reference these functions
are held to step for step (``tests/unit/test_banded_alignment.py``), and both are held to
meeteval's own alignment. Here no row returns to Python: a 160-minute unit's two alignments of
40,000 tokens take a second instead of twenty.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.typed import List

from msbench.scoring.matching.row_kernel import next_row

#: meeteval's cell ceiling (levenshtein.h ``max_value``): a pruned row above it would wrap.
MAX_VALUE = 2**32 - 2
_row = next_row()


#: The backtrace's choice at a cell, two bits each (0: the cell is not recorded).
DIAGONAL, DELETION, INSERTION = 1, 2, 3


@njit(cache=True, nogil=True, inline="always")
def _choice(left: int, up: int, corner: int, meets: bool, wrong: int) -> int:
    """meeteval's backtrace at a cell (levenshtein.h): the diagonal when its words meet and it
    is strictly cheaper than both others, else the deletion when strictly cheaper than the
    insertion, else the insertion; ``left``, ``up``, ``corner``: the neighbours' values."""
    insertion, deletion = left + 1, up + 1
    if meets and corner + wrong < min(deletion, insertion):
        return DIAGONAL
    return DELETION if deletion < insertion else INSERTION


@njit(cache=True, nogil=True)
def forward(
    lo: np.ndarray,
    main: np.ndarray,
    hi: np.ndarray,
    border: np.ndarray,
    outside: int,
    pruned: bool,
    every: int,
    ref_starts: np.ndarray,
    ref_ends: np.ndarray,
    ref_symbols: np.ndarray,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
    hyp_symbols: np.ndarray,
) -> tuple[Any, int, bool]:
    """Checkpoint rows (row 0 and every ``every``-th), the final cell, and whether a pruned
    row reached meeteval's ceiling."""
    rows = len(ref_symbols)
    checkpoints = List()
    row = np.arange(lo[0], hi[0])
    checkpoints.append(row)
    for i in range(1, rows + 1):
        row = _row(row, lo[i - 1], lo[i], main[i], hi[i], border[i], outside,
                       ref_starts[i - 1], ref_ends[i - 1], ref_symbols[i - 1],
                       hyp_starts, hyp_ends, hyp_symbols)  # fmt: skip
        if pruned and len(row) > 0 and row.max() > MAX_VALUE:
            return checkpoints, outside, True
        if i % every == 0:
            checkpoints.append(row)
    columns = len(hyp_symbols)
    final = row[len(row) - 1] if len(row) > 0 and hi[rows] == columns + 1 else outside
    return checkpoints, final, False


@njit(cache=True, nogil=True)
def _value(block: Any, block_start: int, lo: np.ndarray, outside: int, i: int, j: int) -> int:
    row = block[i - block_start]
    k = j - lo[i]
    if 0 <= k < len(row):
        return int(row[k])
    return outside


@njit(cache=True, nogil=True)
def _block(
    start: int,
    every: int,
    checkpoints: Any,
    lo: np.ndarray,
    main: np.ndarray,
    hi: np.ndarray,
    border: np.ndarray,
    outside: int,
    ref_starts: np.ndarray,
    ref_ends: np.ndarray,
    ref_symbols: np.ndarray,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
    hyp_symbols: np.ndarray,
) -> Any:
    """Rows ``start`` to ``start + every`` recomputed from the checkpoint at ``start``."""
    block = List()
    block.append(checkpoints[start // every])
    for k in range(start + 1, min(start + every, len(ref_symbols)) + 1):
        block.append(_row(block[k - 1 - start], lo[k - 1], lo[k], main[k], hi[k], border[k],
                          outside, ref_starts[k - 1], ref_ends[k - 1], ref_symbols[k - 1],
                          hyp_starts, hyp_ends, hyp_symbols))  # fmt: skip
    return block


@njit(cache=True, nogil=True)
def backtrace(
    lo: np.ndarray,
    main: np.ndarray,
    hi: np.ndarray,
    border: np.ndarray,
    outside: int,
    every: int,
    checkpoints: Any,
    ref_starts: np.ndarray,
    ref_ends: np.ndarray,
    ref_symbols: np.ndarray,
    hyp_starts: np.ndarray,
    hyp_ends: np.ndarray,
    hyp_symbols: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """meeteval's backtrace (levenshtein.h), block by block from the checkpoints: the steps as
    two arrays, reference and hypothesis index (-1: no partner), in alignment order."""
    rows, columns = len(ref_symbols), len(hyp_symbols)
    step_ref = np.empty(rows + columns, dtype=np.int64)
    step_hyp = np.empty(rows + columns, dtype=np.int64)
    n, i, j = 0, rows, columns
    block_start = -1
    block = List()
    block.append(checkpoints[0])
    while i > 0 or j > 0:
        choice = INSERTION if i == 0 else DELETION
        if i > 0 and j > 0:
            start = ((i - 1) // every) * every
            if start != block_start:
                block = _block(start, every, checkpoints, lo, main, hi, border, outside,
                               ref_starts, ref_ends, ref_symbols, hyp_starts, hyp_ends,
                               hyp_symbols)  # fmt: skip
                block_start = start
            meets = ref_starts[i - 1] < hyp_ends[j - 1] and ref_ends[i - 1] > hyp_starts[j - 1]
            choice = _choice(
                _value(block, block_start, lo, outside, i, j - 1),
                _value(block, block_start, lo, outside, i - 1, j),
                _value(block, block_start, lo, outside, i - 1, j - 1),
                meets,
                1 if ref_symbols[i - 1] != hyp_symbols[j - 1] else 0,
            )
        i, j = i - (choice != INSERTION), j - (choice != DELETION)
        step_ref[n] = i if choice != INSERTION else -1
        step_hyp[n] = j if choice != DELETION else -1
        n += 1
    return step_ref[:n][::-1].copy(), step_hyp[:n][::-1].copy()
