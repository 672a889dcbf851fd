"""The five condition analyses of MS-Bench Table 2: overlap, similarity, acoustic, turn, speaker.

One function per analysis; each returns an :class:`Analysis` (title,
description, control, series) whose series carry a point value, its
recording-level cluster-bootstrap interval (:mod:`msbench.diagnostics.bootstrap`)
and the significance mark. Group rates are ratios of sums over utterances:
``E_lex = sum(S + I_lex + D_lex) / sum(N_ref)``, ``E_seg = sum(I_seg + D_seg) /
sum(N_ref)``, ``E_attr = sum(misattributed) / sum(attributable)``. Differences
(``Delta``) are in percentage points, high-condition group minus low.

1. **overlap**: utterances with ``r_ov >= overlap_threshold`` (0.5) against
   utterances with ``r_ov = 0``, inside units holding worded utterances of both
   kinds (the others are dropped and counted); plus the overlap-region checks
   of :mod:`msbench.scoring.diagnosis.regions` as shares (%, no significance).
2. **similarity** (:mod:`~msbench.diagnostics.correlations`).
3. **acoustic** (:mod:`~msbench.diagnostics.correlations`).
4. **turn**: utterances with ``r_ov = 0`` within ``delta`` of a non-overlapping
   switch (near) against those farther than ``delta`` from every switch (far),
   inside units holding both; ``delta`` = each of ``switch_neighbourhoods``.
5. **speaker** (:mod:`~msbench.diagnostics.correlations`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from msbench.diagnostics.analysis_inputs import Row, SystemTables
from msbench.diagnostics.bootstrap import Estimate, Statistic, estimate, ratio, ratio_difference

LEXICAL = ("s", "i_lex", "d_lex")
SEGMENTATION = ("i_seg", "d_seg")


@dataclass(frozen=True)
class Series:
    label: str
    unit: str  # pp, rho or %
    estimate: Estimate
    headline: bool = True  # shown in Table 2 (the others: the intervals table and figures)
    tested: bool = True  # whether "significant" applies (a share is not tested against 0)

    def to_dict(self) -> dict[str, Any]:
        e = self.estimate
        return {
            "label": self.label,
            "unit": self.unit,
            "value": e.value,
            "interval": None if e.low is None else [e.low, e.high],
            "significant": e.significant if self.tested else None,
            "defined_resamples": e.defined_resamples,
            "headline": self.headline,
        }


@dataclass(frozen=True)
class Analysis:
    title: str
    description: str
    control: str
    series: list[Series]
    counts: dict[str, Any] = field(default_factory=dict)
    not_evaluable: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "description": self.description,
            "control": self.control,
            "series": [s.to_dict() for s in self.series],
            "counts": self.counts,
            "not_evaluable": self.not_evaluable,
        }


@dataclass(frozen=True)
class Context:
    """What every analysis shares: the resampling weights and the settings."""

    weights: np.ndarray
    confidence: float
    settings: Mapping[str, Any]

    def estimate(self, statistic: Statistic) -> Estimate:
        return estimate(statistic, self.weights, self.confidence)


def column(name: str) -> Callable[[Row], float]:
    """A row's ``name`` cell as a number (0 for an empty cell)."""
    return lambda row: float(row[name] or 0)


def errors(row: Row, kinds: tuple[str, ...]) -> int:
    return sum(int(row[k] or 0) for k in kinds)


def _group_difference(
    tables: SystemTables,
    rows: list[Row],
    in_a: Callable[[Row], bool],
    in_b: Callable[[Row], bool],
    kinds: tuple[str, ...] | None,
) -> Statistic:
    """Delta (pp) of a word rate (``kinds``) or, for None, of E_attr, group a minus group b."""

    def sums(member: Callable[[Row], bool]) -> tuple[np.ndarray, np.ndarray]:
        chosen = [r for r in rows if member(r)]
        if kinds is None:
            num = tables.per_recording(chosen, lambda r: float(bool(r["misattributed"])))
            den = tables.per_recording(chosen, lambda r: float(bool(r["attributable"])))
        else:
            num = tables.per_recording(chosen, lambda r: errors(r, kinds))
            den = tables.per_recording(chosen, lambda r: int(r["n_ref"] or 0))
        return num, den

    return ratio_difference(*sums(in_a), *sums(in_b))


def units_with_both(
    rows: list[Row], in_a: Callable[[Row], bool], in_b: Callable[[Row], bool]
) -> set[str]:
    """Units holding a worded utterance of each group."""
    worded = [r for r in rows if int(r["n_ref"] or 0) > 0]
    return {str(r["unit_id"]) for r in worded if in_a(r)} & {
        str(r["unit_id"]) for r in worded if in_b(r)
    }


def overlap_analysis(tables: SystemTables, context: Context) -> Analysis:
    threshold = float(context.settings["overlap_threshold"])

    def high(r: Row) -> bool:
        return float(r["overlap_exposure"]) >= threshold

    def zero(r: Row) -> bool:
        return float(r["overlap_exposure"]) == 0

    kept = units_with_both(tables.utterances, high, zero)
    rows = [r for r in tables.utterances if r["unit_id"] in kept]
    series = [
        Series(
            "Delta E_lex",
            "pp",
            context.estimate(_group_difference(tables, rows, high, zero, LEXICAL)),
        ),
        Series(
            "Delta E_attr",
            "pp",
            context.estimate(_group_difference(tables, rows, high, zero, None)),
        ),
    ]
    for label, num, den in (
        ("Overlap boundaries localised (+-{tol} s)", "ov_boundaries_localised", "ov_boundaries"),
        ("Overlap time covered by any speaker", "ov_covered", "ov_seconds"),
        (
            "Overlap speaker-time covered by the correct speaker",
            "ov_speaker_covered",
            "ov_speaker_seconds",
        ),
    ):
        statistic = ratio(
            tables.per_recording(tables.units, column(num)),
            tables.per_recording(tables.units, column(den)),
        )
        tol = context.settings.get("boundary_tolerance", 0.5)
        series.append(
            Series(
                label.format(tol=tol),
                "%",
                context.estimate(statistic),
                headline=False,
                tested=False,
            )
        )
    worded_units = {str(r["unit_id"]) for r in tables.utterances if int(r["n_ref"] or 0) > 0}
    return Analysis(
        "Overlap increases lexical and speaker-attribution errors.",
        "Within-unit comparison of non-overlapped utterances and utterances with at least "
        f"{threshold:.0%} overlap exposure.",
        "Only inference units containing both classes are retained.",
        series,
        counts={
            "units_kept": len(kept),
            "units_dropped": len(worded_units - kept),
            "utterances_overlapped": sum(high(r) for r in rows),
            "utterances_non_overlapped": sum(zero(r) for r in rows),
        },
    )


def turn_analysis(tables: SystemTables, context: Context) -> Analysis:
    deltas = [float(d) for d in context.settings["switch_neighbourhoods"]]
    clean = [r for r in tables.utterances if float(r["overlap_exposure"]) == 0]
    series, counts = [], {}
    for position, delta in enumerate(deltas):

        def near(r: Row, d: float = delta) -> bool:
            return r["switch_distance"] is not None and float(r["switch_distance"]) <= d

        def far(r: Row, d: float = delta) -> bool:
            return not near(r, d)

        kept = units_with_both(clean, near, far)
        rows = [r for r in clean if r["unit_id"] in kept]
        suffix = "" if position == 0 else f" (+-{delta:g} s)"
        for name, kinds in (("E_attr", None), ("E_lex", LEXICAL), ("E_seg", SEGMENTATION)):
            statistic = _group_difference(tables, rows, near, far, kinds)
            headline = position == 0 and name == "E_attr"
            series.append(
                Series(f"Delta {name}{suffix}", "pp", context.estimate(statistic), headline)
            )
        counts[f"{delta:g}"] = {
            "units_kept": len(kept),
            "utterances_near": sum(near(r) for r in rows),
            "utterances_far": sum(far(r) for r in rows),
        }
    return Analysis(
        "Speaker transitions primarily disrupt attribution.",
        f"Within-unit attribution penalty in a +/-{deltas[0]:g} s neighborhood around "
        "non-overlapping speaker switches.",
        "Non-overlapped utterances (r_ov = 0) only; units holding both near and far "
        "utterances; other neighbourhood widths reported beside.",
        series,
        counts=counts,
    )
