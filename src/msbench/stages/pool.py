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
    from msbench.columns import CANDIDATE_COLUMNS, POOL_EXCLUDED_COLUMNS
    from msbench.construction.condition_space import read_condition_space
    from msbench.construction.utility import utility_pool
    from msbench.tables import nonempty, read_table, write_csv, write_table_jsonl
    from msbench.textio import write_json

    resolved = resolve_settings(config, settings)
    pool = utility_pool(
        nonempty(read_table(labelled), labelled), read_condition_space(space), resolved
    )
    write_csv(out, pool.candidates, CANDIDATE_COLUMNS)
    write_table_jsonl(excluded, pool.excluded, POOL_EXCLUDED_COLUMNS)
    if pool.notes:
        write_json(excluded.with_suffix(".notes.json"), pool.notes)
