"""Every pair of systems, every metric, overall and per condition; and their Table 2 effects.

For systems A and B (A before B in system-id order) the comparison is made on the units both
scored; a condition group (``O3``, ``P2``, ``source=ami``, ``language=en``, ``scenario=...``)
keeps those of its recordings. The resampling weights are the benchmark's (one matrix over
all its recordings, :func:`msbench.diagnostics.system.analysis_context`): every system,
every group and every Table 2 analysis sees the same draws.

**One decision rule.** The primary test is the primary metric (``compare.metric``, cpWER by
default) over the whole benchmark (group ``all``), at ``1 - compare.confidence``: its
``p_adjusted`` is Westfall and Young's step-down max-T over the pairs
(:mod:`msbench.comparison.multiplicity`, on the units every system scored), and
``significant`` is ``p_adjusted < alpha``. Every other row (the other metrics, every condition
group) is **exploratory**: its raw and adjusted p (max-T over the pairs of that metric and
group) are reported, ``significant`` is left empty, and nothing corrects across metrics or
groups. A row says in ``verdict`` why it is what it is, and says so when no verdict is
possible: ``cannot be significant with N recordings`` (the smallest p the test can give is
above alpha) or ``no interval or test: N recordings (3 needed)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from msbench.columns import AXES
from msbench.comparison.ground import SystemUnits
from msbench.comparison.metrics import METRICS, Metric, defined, recording_sums
from msbench.comparison.paired import PairedSums, draw_difference, paired_test, probabilities
from msbench.diagnostics.bootstrap import estimate, ratio
from msbench.diagnostics.intervals import MIN_RECORDINGS

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
            "interval": "jackknife over recordings, Student's t on n - 1 degrees of freedom",
            "probabilities": "shares of resamples in which B's rate is <, =, > A's",
            "test": self.test,
            "permutations": self.permutations,
            "primary": f"{self.metric} over the benchmark (group all)",
            "correction": "Westfall-Young step-down max-T over the pairs of each metric and group",
            "significant": f"primary rows only: adjusted p < {self.alpha:g}; every other row is "
            "exploratory",
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
    sums = PairedSums(num_a, den_a, num_b, den_b)
    kept = sums.informative_mask()  # the recordings where either side has a denominator
    a = estimate(ratio(num_a[kept], den_a[kept]), weights[:, kept], settings.confidence)
    b = estimate(ratio(num_b[kept], den_b[kept]), weights[:, kept], settings.confidence)
    difference = draw_difference(a, b, settings.confidence)
    shares = probabilities(a, b) or (None, None, None)
    enough = sums.recordings >= MIN_RECORDINGS
    p = paired_test(settings.test, sums, settings.permutations, settings.seed) if enough else None
    return {"metric": metric.name, "recordings": sums.recordings, "rate_a": a.value,
            "rate_b": b.value, "difference": difference.value, "low": difference.low,
            "high": difference.high, "p_better": shares[0], "p_tie": shares[1],
            "p_worse": shares[2], "test": settings.test, "p_value": p,
            "defined_resamples": difference.defined_resamples}  # fmt: skip


def compare_pair(
    a: SystemUnits,
    b: SystemUnits,
    groups: Mapping[str, set[str]],
    recordings: Sequence[str],
    weights: np.ndarray,
    settings: CompareSettings,
) -> list[dict[str, Any]]:
    """One row per metric and group for the pair (the correction not applied yet)."""
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


def compare_systems(
    systems: Sequence[SystemUnits],
    benchmark: Sequence[Row],
    weights: np.ndarray,
    settings: CompareSettings,
) -> list[dict[str, Any]]:
    """Every pair (system-id order), metric and group, with the correction and the verdict of
    the decision rule (module docstring): pairs.csv."""
    from msbench.comparison.verdicts import with_verdicts

    ordered = sorted(systems, key=lambda s: s.system_id)
    recordings = [str(r["recording_id"]) for r in benchmark]
    groups = condition_groups(benchmark)
    rows = [
        row
        for i, a in enumerate(ordered)
        for b in ordered[i + 1 :]
        for row in compare_pair(a, b, groups, recordings, weights, settings)
    ]
    return with_verdicts(rows, ordered, groups, recordings, settings)


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
                            "value_a": series.estimate.value,
                            "value_b": other.estimate.value,
                            "difference": d.value,
                            "low": d.low,
                            "high": d.high,
                            "significant": d.significant,
                            "defined_resamples": d.defined_resamples,
                        }
                    )
    return out
