"""Every pair of systems, every metric, overall and per condition; and their Table 2 effects.

For systems A and B (A before B in system-id order) the comparison is made on the units both
scored; a condition group (``O3``, ``P2``, ``source=ami``, ``language=en``, ``scenario=...``)
keeps those of its recordings. The resampling weights are the benchmark's (one matrix over
all its recordings, :func:`msbench.diagnostics.system.analysis_context`): every system,
every group and every Table 2 analysis sees the same draws. Holm's correction runs within
each group, over every pair and metric of the run (the family of a condition row is the
pairs x metrics of that condition; the ``all`` rows are their own family).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from msbench.columns import AXES
from msbench.comparison.ground import SystemUnits
from msbench.comparison.metrics import METRICS, Metric, defined, recording_sums
from msbench.comparison.paired import (
    PairedSums,
    draw_difference,
    holm,
    paired_test,
    probability_of_improvement,
)
from msbench.diagnostics.bootstrap import estimate, ratio

Row = Mapping[str, Any]
#: Where a group's name comes from: the axes' labels as they are, the others as field=value.
NAMED_FIELDS = ("source_dataset", "language", "scenario")


@dataclass(frozen=True)
class CompareSettings:
    """``compare:`` of the config, and the bootstrap of ``diagnostics.bootstrap``."""

    metric: str = "cpwer"
    test: str = "permutation"
    confidence: float = 0.95
    permutations: int = 10000
    resamples: int = 1000
    seed: int = 0

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> CompareSettings:
        section, boot = config.get("compare", {}), config["diagnostics"]["bootstrap"]
        return cls(
            section.get("metric", "cpwer"),
            section.get("test", "permutation"),
            float(section.get("confidence", 0.95)),
            int(section.get("permutations", 10000)),
            int(boot["resamples"]),
            int(boot["seed"]),
        )

    @property
    def alpha(self) -> float:
        return round(1 - self.confidence, 12)

    def described(self) -> dict[str, Any]:
        """What every output states beside its numbers."""
        return {
            "cluster": "recording",
            "resamples": self.resamples,
            "seed": self.seed,
            "confidence": self.confidence,
            "interval": "percentile of the paired differences over the shared draws",
            "probability_of_improvement": "share of resamples in which B's rate < A's",
            "test": self.test,
            "permutations": self.permutations,
            "correction": "Holm, within each group over every pair and metric",
            "significant": f"Holm-adjusted p < {self.alpha:g}",
            "difference": "B - A, percentage points, on the units both systems scored",
        }


def condition_groups(benchmark: Sequence[Row]) -> dict[str, set[str]]:
    """``all`` and every condition present: group name -> its recording ids, in a fixed order.

    >>> rows = [{"recording_id": "a", "P": "P0", "O": "O3", "S": "S1", "T": "T0", "N": "N2",
    ...          "source_dataset": "ami", "language": "en", "scenario": "meeting"}]
    >>> list(condition_groups(rows))
    ['all', 'P0', 'O3', 'S1', 'T0', 'N2', 'source_dataset=ami', 'language=en', 'scenario=meeting']
    """
    groups: dict[str, set[str]] = {"all": {str(r["recording_id"]) for r in benchmark}}
    for name in (*AXES, *NAMED_FIELDS):
        found: dict[str, set[str]] = {}
        for row in benchmark:
            value = row.get(name)
            if value in (None, ""):
                continue
            label = str(value) if name in AXES else f"{name}={value}"
            found.setdefault(label, set()).add(str(row["recording_id"]))
        groups.update(sorted(found.items()))
    return groups


def _compare_metric(
    metric: Metric,
    rows: tuple[list[Row], list[Row]],
    recordings: Sequence[str],
    weights: np.ndarray,
    settings: CompareSettings,
) -> dict[str, Any]:
    if not (defined(metric, rows[0]) and defined(metric, rows[1])):
        return {"metric": metric.name, "test": settings.test}
    num_a, den_a = recording_sums(metric, rows[0], recordings)
    num_b, den_b = recording_sums(metric, rows[1], recordings)
    a = estimate(ratio(num_a, den_a), weights, settings.confidence)
    b = estimate(ratio(num_b, den_b), weights, settings.confidence)
    difference = draw_difference(a, b, settings.confidence)
    sums = PairedSums(num_a, den_a, num_b, den_b)
    return {
        "metric": metric.name,
        "recordings": sums.recordings,
        "rate_a": _round(a.value),
        "rate_b": _round(b.value),
        "difference": _round(difference.value),
        "low": _round(difference.low),
        "high": _round(difference.high),
        "p_improvement": _round(probability_of_improvement(a, b)),
        "test": settings.test,
        "p_value": _round(paired_test(settings.test, sums, settings.permutations, settings.seed)),
        "defined_resamples": difference.defined_resamples,
    }


def _round(value: float | None, digits: int = 6) -> float | None:
    return None if value is None else round(float(value), digits)


def compare_pair(
    a: SystemUnits,
    b: SystemUnits,
    groups: Mapping[str, set[str]],
    recordings: Sequence[str],
    weights: np.ndarray,
    settings: CompareSettings,
) -> list[dict[str, Any]]:
    """One row per metric and group for the pair (Holm not applied yet)."""
    both = a.scored & b.scored
    out = []
    for group, members in groups.items():
        rows = tuple(
            [r for r in s.units if str(r["unit_id"]) in both and str(r["recording_id"]) in members]
            for s in (a, b)
        )
        for metric in METRICS.values():
            found = _compare_metric(metric, (rows[0], rows[1]), recordings, weights, settings)
            ids = {"system_a": a.system_id, "system_b": b.system_id, "group": group}
            out.append({**ids, "units": len(rows[0]), **found})
    return out


def with_holm(rows: list[dict[str, Any]], alpha: float) -> list[dict[str, Any]]:
    """``p_holm`` within each group, and ``significant`` (``p_holm < alpha``)."""
    by_group: dict[str, list[int]] = {}
    for k, row in enumerate(rows):
        by_group.setdefault(str(row["group"]), []).append(k)
    out = [dict(row) for row in rows]
    for members in by_group.values():
        adjusted = holm([rows[k].get("p_value") for k in members])
        for k, p in zip(members, adjusted, strict=True):
            out[k]["p_holm"] = p
            out[k]["significant"] = None if p is None else bool(p < alpha)
    return out


def compare_systems(
    systems: Sequence[SystemUnits],
    benchmark: Sequence[Row],
    weights: np.ndarray,
    settings: CompareSettings,
) -> list[dict[str, Any]]:
    """Every pair (system-id order), metric and group, with Holm's correction: pairs.csv."""
    ordered = sorted(systems, key=lambda s: s.system_id)
    recordings = [str(r["recording_id"]) for r in benchmark]
    groups = condition_groups(benchmark)
    rows = [
        row
        for i, a in enumerate(ordered)
        for b in ordered[i + 1 :]
        for row in compare_pair(a, b, groups, recordings, weights, settings)
    ]
    return with_holm(rows, settings.alpha)


def table2_differences(tables: Sequence[Any], context: Any) -> list[dict[str, Any]]:
    """Per pair of systems' diagnosis tables: each Table 2 series B - A on the units both scored,
    with the interval of the per-resample differences (the analyses' own shared draws)."""
    from msbench.diagnostics.system import run_analyses

    def on_common(t: Any, keep: set[str]) -> Any:
        def inside(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return [r for r in rows if str(r["unit_id"]) in keep]

        return replace(
            t, units=inside(t.units), utterances=inside(t.utterances), pairs=inside(t.pairs)
        )

    ordered = sorted(tables, key=lambda t: t.system_id)
    out = []
    for i, ta in enumerate(ordered):
        for tb in ordered[i + 1 :]:
            keep = {str(r["unit_id"]) for r in ta.units} & {str(r["unit_id"]) for r in tb.units}
            results = [run_analyses(on_common(t, keep), context) for t in (ta, tb)]
            for name, analysis in results[0].items():
                series_b = {s.label: s for s in results[1][name].series}
                for series in analysis.series:
                    other = series_b.get(series.label)
                    if other is None:
                        continue
                    d = draw_difference(series.estimate, other.estimate, context.confidence)
                    out.append(
                        {
                            "system_a": ta.system_id,
                            "system_b": tb.system_id,
                            "analysis": name,
                            "label": series.label,
                            "unit": series.unit,
                            "value_a": _round(series.estimate.value),
                            "value_b": _round(other.estimate.value),
                            "difference": _round(d.value),
                            "low": _round(d.low),
                            "high": _round(d.high),
                            "significant": d.significant,
                            "defined_resamples": d.defined_resamples,
                        }
                    )
    return out
