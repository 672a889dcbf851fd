"""``msbench pool``: the candidate pool and its utility C, M, D, R, U."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def run(
    labelled: Annotated[Path, Arg("labelled recordings (JSONL)")],
    space: Annotated[Path, Arg("condition_space.yaml written by `bin`")],
    out: Annotated[Path, Arg("candidate_pool.csv")],
    excluded: Annotated[Path, Arg("recordings left out, with code and reason (JSONL)")],
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Build the candidate pool and score its utility.

    Eligible recordings, thinned per profile cell and source, each scored with
    U = w_C C + w_M M + w_D D + w_R R.
    """
    from msbench.catalog import CANDIDATES, LABELLED, POOL_EXCLUDED
    from msbench.construction.condition_space import read_condition_space
    from msbench.construction.utility import utility_pool
    from msbench.tables import nonempty, read_rows, write_rows
    from msbench.textio import write_json

    resolved = resolve_settings(config, settings)
    pool = utility_pool(
        nonempty(read_rows(LABELLED, labelled), labelled), read_condition_space(space), resolved
    )
    write_rows(CANDIDATES, out, pool.candidates)
    write_rows(POOL_EXCLUDED, excluded, pool.excluded)
    if pool.notes:
        write_json(excluded.with_suffix(".notes.json"), pool.notes)
