"""A comparison of the systems of a run, from their evaluation folders (``msbench compare``),
and the leaderboard's views and rank groups (``msbench leaderboard``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from msbench.comparison.ground import (
    SystemUnits,
    common_units,
    differing_note,
    on_benchmark,
    read_system,
)
from msbench.comparison.pairs import CompareSettings, compare_systems, table2_differences
from msbench.comparison.rank_groups import rank_groups
from msbench.comparison.verdicts import cannot_note
from msbench.comparison.views import leaderboard_views

Row = Mapping[str, Any]


@dataclass(frozen=True)
class Comparison:
    pairs: list[dict[str, Any]]
    table2: list[dict[str, Any]]
    document: dict[str, Any]


def _systems(
    folders: Sequence[Path],
    benchmark: Sequence[Row],
    references: Mapping[str, Sequence[Any]] | None,
    scoring: Mapping[str, Any],
) -> list[SystemUnits]:
    """Each folder's system on the benchmark's recordings (:func:`msbench.comparison.ground.
    on_benchmark`), in system-id order."""
    from msbench.errors import ConfigError

    systems = [
        on_benchmark(read_system(folder), folder, benchmark, references, scoring)
        for folder in folders
    ]
    ids = [s.system_id for s in systems]
    if len(set(ids)) != len(ids):
        raise ConfigError(f"msbench compare: a system id is given twice: {sorted(ids)}")
    return sorted(systems, key=lambda s: s.system_id)


def compare_evaluations(
    folders: Sequence[Path],
    benchmark: Sequence[Row],
    similarity: Path | None,
    config: Mapping[str, Any],
    references: Mapping[str, Sequence[Any]] | None = None,
) -> Comparison:
    """Every pair of the systems in ``folders`` (see :mod:`msbench.comparison.pairs`);
    ``references``: each recording's reference segments (missing units are then charged)."""
    from msbench.diagnostics.analysis_inputs import load_system
    from msbench.diagnostics.system import analysis_context
    from msbench.errors import ConfigError

    if len(folders) < 2:
        raise ConfigError(
            f"msbench compare: {len(folders)} evaluation folder given; a comparison needs two or "
            "more (one system's rates and intervals are in msbench leaderboard's views)"
        )
    settings = CompareSettings.from_config(config)
    systems = _systems(folders, benchmark, references, config["scoring"])
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
        "verdict_note": cannot_note(pairs),
        "pairs": pairs,
        "table2": table2,
    }
    return Comparison(pairs, table2, document)


def board_views(
    folders: Sequence[Path],
    benchmark: Sequence[Row],
    config: Mapping[str, Any],
    pairs: Sequence[Row] | None = None,
    references: Mapping[str, Sequence[Any]] | None = None,
) -> tuple[list[dict[str, Any]], str | None, dict[str, Any]]:
    """The leaderboard's views with intervals and rank groups (per view: each view's rates and
    its own paired tests of the compare metric, :func:`msbench.comparison.verdicts.
    view_significance`), the differing-units note, and the settings stated beside them.
    ``pairs`` (compare's pairs.csv) is not needed: the rank groups are tested here, per view."""
    from msbench.comparison.ground import VIEWS, view_rows
    from msbench.comparison.verdicts import view_significance
    from msbench.diagnostics.bootstrap import Bootstrap

    settings = CompareSettings.from_config(config)
    systems = _systems(folders, benchmark, references, config["scoring"])
    weights = Bootstrap(settings.resamples, settings.seed).weights(len(benchmark))
    recordings = [str(r["recording_id"]) for r in benchmark]
    draft = leaderboard_views(systems, recordings, weights, settings.confidence)
    common = common_units(systems)
    groups: dict[str, dict[str, str]] = {}
    for view in VIEWS:
        rows = {s.system_id: view_rows(s, view, common) for s in systems}
        significant = view_significance(rows, settings.metric, recordings, settings)
        rates = {r["system_id"]: r[settings.metric] for r in draft if r["view"] == view}
        groups[view] = rank_groups(rates, _tells_apart(significant))
    views = [{**r, "rank_group": groups[r["view"]].get(r["system_id"], "")} for r in draft]
    from msbench.scoring.tokenizer import VERSION

    tokenizer = config["scoring"]["tokenizer"]
    stated = {**settings.described(), "rank_groups": f"{settings.metric}, per view: its own "
              "paired tests, step-down max-T over the pairs",
              "tokenizer": f"{tokenizer} version {VERSION[tokenizer]}"}  # fmt: skip
    return views, differing_note(systems), stated


def _tells_apart(pairs: set[tuple[str, str]]) -> Callable[[str, str], bool]:
    def different(a: str, b: str) -> bool:
        return (a, b) in pairs

    return different
