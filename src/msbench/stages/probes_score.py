"""``msbench probes-score``: a model's answers on a probe set, per family, overlap label and condition."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg


def run(
    answers: Annotated[Path, Arg("the model's answers (JSON Lines, JSON object or list)")],
    items: Annotated[Path, Arg("the probe set's items.jsonl")] = Path("results/probes/items.jsonl"),
    out: Annotated[Path | None, Arg("also write the report here (JSON)")] = None,
) -> None:
    """Print accuracy overall, per family, task, overlap label and condition range, and Ver-A.

    Missing and unreadable answers count as wrong (their numbers are in the
    report); Ver-A counts a counterfactual pair only when both items are right.
    """
    import json

    from msbench.catalog import PROBE_ITEMS
    from msbench.probes.accuracy import read_answers, score_answers
    from msbench.tables import read_rows
    from msbench.textio import write_json

    report = score_answers(read_rows(PROBE_ITEMS, items), read_answers(answers))
    if out is not None:
        write_json(out, report)
    print(json.dumps(report, indent=1, sort_keys=True))
