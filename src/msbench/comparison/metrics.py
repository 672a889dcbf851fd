"""The rates systems are compared on, each a ratio of sums of unit counts (in percent).

A metric is a record of :mod:`msbench.metrics` (its sufficient statistics and its formula):
``100 * sum(numerators) / sum(denominator)`` over a set of units, the leaderboard's own rates
(:func:`msbench.scoring.aggregate.rates`). Every compared metric (``msbench.metrics.COMPARED``:
DER, cpWER, tcpWER, WER, E_lex, E_seg, E_attr) gets intervals and tests from its statistics
alone. For the bootstrap and the paired tests a metric is summed per recording (the clusters),
in benchmark order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from msbench.metrics import COMPARED, Metric

Row = Mapping[str, Any]


#: The compared metrics by name (msbench.metrics.COMPARED, the one registry).
METRICS: dict[str, Metric] = {m.name: m for m in COMPARED}


def defined(metric: Metric, rows: Iterable[Row]) -> bool:
    """False when a scored unit with reference words lacks the metric's WER family."""
    if metric.counts is None:
        return True
    return not any(
        r.get(f"{metric.counts}_length") is None and r.get("wer_length") is not None for r in rows
    )


def recording_sums(
    metric: Metric, rows: Iterable[Row], recordings: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """The metric's numerator and denominator summed per recording (benchmark order); units of
    recordings outside ``recordings`` are ignored, empty cells count 0.

    >>> rows = [{"recording_id": "b", "cp_errors": 2, "cp_length": 4, "wer_length": 4},
    ...         {"recording_id": "b", "cp_errors": 1, "cp_length": 6, "wer_length": 6}]
    >>> [v.tolist() for v in recording_sums(METRICS["cpwer"], rows, ["a", "b"])]
    [[0.0, 3.0], [0.0, 10.0]]
    """
    index = {rid: k for k, rid in enumerate(recordings)}
    num, den = np.zeros(len(recordings)), np.zeros(len(recordings))
    for row in rows:
        k = index.get(str(row["recording_id"]))
        if k is None:
            continue
        num[k] += sum(float(row.get(c) or 0) for c in metric.numerators)
        den[k] += float(row.get(metric.denominator) or 0)
    return num, den


def rate(num: np.ndarray, den: np.ndarray) -> float | None:
    """``100 * sum(num) / sum(den)``; None for an empty denominator.

    >>> rate(np.array([1.0, 2.0]), np.array([4.0, 8.0]))
    25.0
    """
    total = float(den.sum())
    return 100 * float(num.sum()) / total if total else None
