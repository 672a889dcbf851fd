"""``msbench describe``: interaction features of annotation files, without audio."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg


def run(
    annotation: Annotated[Path, Arg("annotation file", positional=True, metavar="ANNOTATION_FILE")],
    format: Annotated[
        str | None,
        Arg(
            "annotation format (default: detected)",
            choices=("rttm", "textgrid", "chime", "seglst", "lhotse"),
        ),
    ] = None,
    uem: Annotated[Path | None, Arg("UEM file giving each session's duration")] = None,
    encoding: Annotated[str | None, Arg("text encoding (default: detect UTF-8/UTF-16)")] = None,
) -> None:
    """Print the interaction features of every session of one annotation file, as JSON.

    Duration comes from --uem, else the annotation (TextGrid xmax, lhotse),
    else the last segment end.
    """
    from msbench.describe import describe_file

    rows = describe_file(str(annotation), format, str(uem) if uem else None, encoding)
    print(json.dumps(rows, ensure_ascii=False, indent=2))
