"""A comparison of the systems of a run, from their evaluation folders (``msbench compare``),
and the leaderboard's views and rank groups (``msbench leaderboard``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from msbench.comparison.ground import SystemUnits, common_units, differing_note, read_system
from msbench.comparison.pairs import CompareSettings, compare_systems, table2_differences
from msbench.comparison.rank_groups import rank_groups
from msbench.comparison.views import leaderboard_views

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Comparison:
    pairs: list[dict[str, Any]]
    table2: list[dict[str, Any]]
    document: dict[str, Any]


def _systems(folders: Sequence[Path]) -> list[SystemUnits]:
    from msbench.errors import ConfigError

    systems = [read_system(folder) for folder in folders]
    ids = [s.system_id for s in systems]
    if len(set(ids)) != len(ids):
        raise ConfigError(f"msbench compare: a system id is given twice: {sorted(ids)}")
    return sorted(systems, key=lambda s: s.system_id)


def compare_evaluations(
    folders: Sequence[Path],
    benchmark: Sequence[Row],
    similarity: Path | None,
    config: Mapping[str, Any],
) -> Comparison:
    """Every pair of the systems in ``folders`` (see :mod:`msbench.comparison.pairs`)."""
    from msbench.diagnostics.analysis_inputs import load_system
    from msbench.diagnostics.system import analysis_context

    settings = CompareSettings.from_config(config)
    systems = _systems(folders)
    _, context = analysis_context(len(benchmark), config["diagnostics"], config["scoring"])
    context = replace(context, confidence=settings.confidence)
    pairs = compare_systems(systems, benchmark, context.weights, settings)
    tables = [load_system(folder, [dict(r) for r in benchmark], similarity) for folder in folders]
    table2 = table2_differences(tables, context)
    document = {
        "settings": settings.described(),
        "metric": settings.metric,
        "systems": [s.system_id for s in systems],
        "units_every_system_scored": len(common_units(systems)),
        "note": differing_note(systems),
        "pairs": pairs,
        "table2": table2,
    }
    return Comparison(pairs, table2, document)


def board_views(
    folders: Sequence[Path],
    benchmark: Sequence[Row],
    config: Mapping[str, Any],
    pairs: Sequence[Row] | None,
) -> tuple[list[dict[str, Any]], str | None, dict[str, Any]]:
    """The leaderboard's views with intervals and rank groups (from ``pairs``, compare's
    pairs.csv; every system its own group without it), the differing-units note, and the
    settings stated beside them."""
    from msbench.diagnostics.bootstrap import Bootstrap

    settings = CompareSettings.from_config(config)
    systems = _systems(folders)
    weights = Bootstrap(settings.resamples, settings.seed).weights(len(benchmark))
    significant = {
        (str(r["system_a"]), str(r["system_b"]))
        for r in pairs or ()
        if r["group"] == "all" and r["metric"] == settings.metric and r["significant"]
    }
    recordings = [str(r["recording_id"]) for r in benchmark]
    draft = leaderboard_views(systems, recordings, weights, settings.confidence)
    rates = {r["system_id"]: r[settings.metric] for r in draft if r["view"] == "common"}
    if pairs is None and len(systems) > 1:
        groups = {s.system_id: "" for s in systems}
    else:
        groups = rank_groups(rates, lambda a, b: (min(a, b), max(a, b)) in significant)
    views = [{**r, "rank_group": groups.get(r["system_id"], "")} for r in draft]
    stated = {**settings.described(), "rank_groups": f"{settings.metric}, common view order"}
    return views, differing_note(systems), stated
