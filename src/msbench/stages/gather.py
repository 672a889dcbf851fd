"""``msbench gather``: one source's acoustic batches as one file, in batch order."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg


def run(
    out: Annotated[Path, Arg("joined JSON Lines file")],
    parts: Annotated[
        tuple[Path, ...], Arg("batch files, in order (each checked against its record)")
    ],
) -> None:
    """Join a source's batch files into one (each read whole and checked, written atomically).

    One file per source lets each source's model jobs depend on that source's
    ingest only: a source that fails holds back no other source.
    """
    from msbench.catalog import joined_batches
    from msbench.tables import read_rows, write_rows

    table, batch = joined_batches(out)
    write_rows(table, out, (row for part in parts for row in read_rows(batch, part)), exact=True)
