"""``msbench overview``: recordings.csv (every recording and its status), summary.json, coverage.png."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg


def run(
    labelled: Annotated[Path, Arg("labelled recordings (JSONL)")],
    pool: Annotated[Path, Arg("candidate_pool.csv")],
    excluded: Annotated[Path, Arg("recordings left out of the pool (JSONL)")],
    benchmark: Annotated[Path, Arg("benchmark.csv")],
    space: Annotated[Path, Arg("condition_space.yaml")],
    out_dir: Annotated[
        Path, Arg("folder for recordings.csv, summary.json, coverage.png, profile_coverage.png")
    ],
) -> None:
    """Write recordings.csv, summary.json and the coverage figures: the run at a glance.

    recordings.csv holds every characterized recording with its features,
    labels, and why it is (not) eligible, in the pool, selected.
    """
    from msbench.catalog import BENCHMARK, CANDIDATES, LABELLED, POOL_EXCLUDED, RECORDINGS
    from msbench.columns import recordings_columns
    from msbench.construction.benchmark_summary import summarize
    from msbench.construction.condition_space import read_condition_space
    from msbench.construction.coverage_figure import plot_coverage, plot_profile_heatmap
    from msbench.construction.manifests import recording_status
    from msbench.tables import read_rows, write_rows
    from msbench.textio import write_json

    condition_space = read_condition_space(space)
    rows = read_rows(LABELLED, labelled)
    selected = {row["recording_id"] for row in read_rows(BENCHMARK, benchmark)}
    pool_rows = read_rows(CANDIDATES, pool)
    table = recording_status(
        rows,
        {row["recording_id"] for row in pool_rows},
        {row["recording_id"]: row for row in read_rows(POOL_EXCLUDED, excluded)},
        selected,
        [(a.name, a.field, a.minimum) for a in condition_space.axes],
    )
    columns = recordings_columns(list(rows[0]) if rows else [])
    write_rows(RECORDINGS, out_dir / RECORDINGS.name, table, columns=columns)
    chosen = [row for row in rows if row["recording_id"] in selected]
    write_json(out_dir / "summary.json", summarize(chosen))
    plot_coverage(chosen, condition_space, out_dir / "coverage.png", pool=pool_rows)
    plot_profile_heatmap(chosen, pool_rows, condition_space, out_dir / "profile_coverage.png")
