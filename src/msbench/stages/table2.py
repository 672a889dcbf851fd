"""``msbench conditions``: every system's analyses together: Table 2 and the figures."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg


def run(
    systems: Annotated[tuple[Path, ...], Arg("each system's conditions.json")],
    out_dir: Annotated[
        Path,
        Arg("folder for condition_results.json, table2.{md,csv}, table2_intervals.md, figures"),
    ],
) -> None:
    """Write condition_results.json (the release's layout), Table 2 and its figures.

    table2.md: systems x headline series, * = significant (the 95 % interval
    excludes 0); table2_intervals.md: every series with its interval;
    error_decomposition.png (E_lex + E_seg per system) and conditions.png.
    """
    from msbench.catalog import TABLE2
    from msbench.diagnostics.figures import plot_conditions, plot_decomposition
    from msbench.diagnostics.report import (
        combine,
        table2_markdown,
        table2_rows,
    )
    from msbench.tables import write_rows
    from msbench.textio import read_json, write_atomic, write_json

    loaded = [read_json(path) for path in systems]
    loaded.sort(key=lambda s: s["system_id"])
    write_json(out_dir / "condition_results.json", combine(loaded))
    write_rows(TABLE2, out_dir / TABLE2.name, table2_rows(loaded))
    write_atomic(out_dir / "table2.md", table2_markdown(loaded))
    write_atomic(out_dir / "table2_intervals.md", table2_markdown(loaded, intervals=True))
    plot_decomposition(loaded, out_dir / "error_decomposition.png")
    plot_conditions(loaded, out_dir / "conditions.png")
