"""``msbench pool``: the candidate pool and its utility C, M, D, R, U."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def run(
    labelled: Annotated[
        Path, Arg("labelled recordings (JSONL)", positional=True, metavar="LABELLED_JSONL")
    ],
    space: Annotated[Path, Arg("condition_space.yaml written by `bin`")],
    out: Annotated[Path, Arg("candidate_pool.csv", short="-o")],
    excluded: Annotated[Path, Arg("recordings left out, with code and reason (JSONL)")],
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Build the candidate pool and score its utility.

    Eligible recordings, thinned per profile cell and source, each scored with
    U = w_C C + w_M M + w_D D + w_R R.
    """
    from msbench.benchmark.conditions import read_condition_space
    from msbench.benchmark.manifests import flatten_conditions
    from msbench.benchmark.pool import build_pool
    from msbench.benchmark.replacement import read_qc_rejections
    from msbench.benchmark.utility import score_pool
    from msbench.columns import CANDIDATE_COLUMNS, POOL_EXCLUDED_COLUMNS
    from msbench.tables import read_table, write_csv, write_table_jsonl
    from msbench.textio import write_json

    resolved = resolve_settings(config, settings)
    condition_space = read_condition_space(space)
    qc = read_qc_rejections(resolved["selection"].get("qc_rejected"))
    result = build_pool(read_table(labelled), resolved["pool"], qc)
    utility = resolved["utility"]
    scores = score_pool(
        result.candidates, condition_space, utility["weights"], utility["challenging"]
    )
    candidates = [{**row, **score} for row, score in zip(result.candidates, scores, strict=True)]
    write_csv(out, (flatten_conditions(r) for r in candidates), CANDIDATE_COLUMNS)
    write_table_jsonl(
        excluded,
        (
            {"recording_id": rid, "pool_code": reason.code, "pool_reason": reason.message}
            for rid, reason in sorted(result.excluded.items())
        ),
        POOL_EXCLUDED_COLUMNS,
    )
    if result.notes:
        write_json(excluded.with_suffix(".notes.json"), result.notes)
