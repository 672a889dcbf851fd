"""The decision rule of a comparison, said once (:mod:`msbench.comparison.pairs`): each row's
adjusted p, its role (``primary`` or ``exploratory``), ``significant`` (primary rows only) and
a ``verdict`` a reader can quote, including when no verdict is possible."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from msbench.comparison.ground import SystemUnits
from msbench.comparison.metrics import METRICS, recording_sums
from msbench.comparison.multiplicity import holm, westfall_young
from msbench.comparison.paired import smallest_p
from msbench.diagnostics.intervals import MIN_RECORDINGS

Row = Mapping[str, Any]


def family_sums(
    systems: Sequence[SystemUnits], metric: str, members: set[str], recordings: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Each system's per-recording sums (systems x recordings) of ``metric`` on the units every
    system scored, over the recordings of ``members`` where any system has a denominator."""
    common = set.intersection(*(s.scored for s in systems))
    sums = [
        recording_sums(
            METRICS[metric],
            [r for r in s.units if str(r["unit_id"]) in common and r["recording_id"] in members],
            recordings,
        )
        for s in systems
    ]
    num, den = np.array([n for n, _ in sums]), np.array([d for _, d in sums])
    keep = den.sum(axis=0) > 0
    return num[:, keep], den[:, keep]


def view_significance(
    rows: Mapping[str, Sequence[Row]], metric: str, recordings: Sequence[str], settings: Any
) -> set[tuple[str, str]]:
    """The pairs of systems whose ``metric`` differs significantly in one view of the
    leaderboard (each system's rows of that view), both orders of each pair: the step-down
    max-T over every pair, on the recordings where any system has a denominator, at
    ``settings.alpha``."""
    ids = sorted(rows)
    if len(ids) < 2:
        return set()
    sums = [recording_sums(METRICS[metric], [r for r in rows[s] if r["status"] != "excluded"],
                           recordings) for s in ids]  # fmt: skip
    num, den = np.array([n for n, _ in sums]), np.array([d for _, d in sums])
    keep = den.sum(axis=0) > 0
    if keep.sum() < MIN_RECORDINGS:
        return set()
    pairs = [(a, b) for a in range(len(ids)) for b in range(a + 1, len(ids))]
    found = westfall_young(num[:, keep], den[:, keep], pairs, settings.permutations, settings.seed)
    different = {(ids[a], ids[b]) for (a, b), p in zip(pairs, found, strict=True)
                 if p is not None and p < settings.alpha}  # fmt: skip
    return different | {(b, a) for a, b in different}


def smallest_attainable(systems: int, recordings: int, test: str, permutations: int) -> float:
    """The smallest p a family's test can give: ``2 / 2^n`` (two systems, every swap), a sign
    test's ``2 * 0.5^n``, else ``1 / (permutations + 1)``.

    >>> smallest_attainable(2, 6, "permutation", 10000), smallest_attainable(4, 60, "permutation", 9999)
    (0.03125, 0.0001)
    """
    if test == "sign":
        return min(1.0, 2 * 0.5**recordings)
    if systems == 2:
        return smallest_p(recordings, permutations)
    return 1 / (permutations + 1)


def with_verdicts(
    rows: list[dict[str, Any]],
    systems: Sequence[SystemUnits],
    groups: Mapping[str, set[str]],
    recordings: Sequence[str],
    settings: Any,
) -> list[dict[str, Any]]:
    """``p_adjusted`` (max-T over the pairs of each metric and group; Holm for the sign test),
    ``role``, ``significant`` and ``verdict`` on every row."""
    index = {s.system_id: k for k, s in enumerate(systems)}
    out = [dict(r) for r in rows]
    families: dict[tuple[str, str], list[int]] = {}
    for k, row in enumerate(out):
        families.setdefault((str(row["metric"]), str(row["group"])), []).append(k)
    for (metric, group), members in families.items():
        raw = [out[k].get("p_value") for k in members]
        adjusted: list[float | None] = list(raw)
        if len(members) > 1 and settings.test == "sign":
            adjusted = holm(raw)
        elif len(members) > 1 and any(p is not None for p in raw):
            num, den = family_sums(systems, metric, groups[group], recordings)
            if num.shape[1] >= MIN_RECORDINGS:
                pairs = [(index[out[k]["system_a"]], index[out[k]["system_b"]]) for k in members]
                found = westfall_young(num, den, pairs, settings.permutations, settings.seed)
                adjusted = [f if p is not None else None for f, p in zip(found, raw, strict=True)]
        for k, p in zip(members, adjusted, strict=True):
            primary = metric == settings.metric and group == "all"
            out[k].update(_verdict(out[k], p, primary, len(systems), settings))
    return out


def _verdict(
    row: Row, adjusted: float | None, primary: bool, systems: int, settings: Any
) -> dict[str, Any]:
    """``p_adjusted``, ``role``, ``significant`` and ``verdict`` of one row."""
    alpha, n = settings.alpha, int(row.get("recordings") or 0)
    role = "primary" if primary else "exploratory"
    found: dict[str, Any] = {"p_adjusted": adjusted, "role": role, "significant": None}
    if n < MIN_RECORDINGS:
        return {
            **found,
            "verdict": f"no interval or test: {n} recordings ({MIN_RECORDINGS} needed)",
        }
    if row.get("p_value") is None:
        return {**found, "verdict": "no test: the metric is undefined for this pair"}
    floor = smallest_attainable(systems, n, settings.test, settings.permutations)
    if floor >= alpha:
        return {**found, "verdict": f"cannot be significant with {n} recordings (the smallest "
                f"p the test can give is {floor:.4g}, alpha {alpha:g})"}  # fmt: skip
    shown = f"adjusted p {format_p(adjusted)}"
    if not primary:
        return {**found, "verdict": f"exploratory: {shown} (raw {format_p(row['p_value'])})"}
    significant = adjusted is not None and adjusted < alpha
    word = "significant" if significant else "not significant"
    sign = "<" if significant else ">="
    return {**found, "significant": significant, "verdict": f"{word}: {shown} {sign} {alpha:g}"}


def format_p(p: float | None, resolution: float = 1e-6) -> str:
    """A p-value as a reader sees it: 4 significant digits, ``< 1e-6`` below the resolution,
    never ``0``.

    >>> format_p(0.031250), format_p(2.0**-59), format_p(None), format_p(1.0)
    ('0.03125', '< 1e-06', '-', '1')
    """
    if p is None:
        return "-"
    if p < resolution:
        return f"< {resolution:.0e}"
    return f"{p:.4g}"


def cannot_note(rows: Sequence[Row]) -> str | None:
    """One line for the terminal when a primary row can have no verdict, else None."""
    stuck = [r for r in rows if r.get("role") == "primary" and "cannot" in str(r.get("verdict"))]
    if not stuck:
        return None
    first = stuck[0]
    return (
        f"{first['metric']} of {first['system_a']} against {first['system_b']}: "
        f"{first['verdict']}; docs/concepts/comparison.md gives the recordings a difference "
        "needs"
    )
