"""``msbench interaction``: speakers, overlap and turn gaps of ingested recordings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg


def run(
    ingested: Annotated[Path, Arg("ingested recordings (JSONL)")],
    out: Annotated[Path, Arg("interaction features (JSONL)")],
    utterances: Annotated[Path, Arg("per-utterance overlap exposure r_ov (CSV)")],
) -> None:
    """Interaction features of ingested recordings (speakers, overlap, turn gaps), and r_ov."""
    from msbench.catalog import INGESTED, INTERACTION, SOURCE_UTTERANCES
    from msbench.features.feature_rows import interaction_row, utterance_rows
    from msbench.records import IngestedRecording
    from msbench.tables import read_rows, write_rows

    items = [IngestedRecording.from_dict(row) for row in read_rows(INGESTED, ingested)]
    write_rows(INTERACTION, out, (interaction_row(item) for item in items))
    write_rows(
        SOURCE_UTTERANCES, utterances, (row for item in items for row in utterance_rows(item))
    )
