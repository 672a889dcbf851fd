"""``msbench describe``: interaction features of annotation files, without audio."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from msbench.io.registry import ANNOTATION_FORMATS
from msbench.stages.options import Arg

FORMATS = ANNOTATION_FORMATS


def run(
    annotations: Annotated[
        tuple[Path, ...],
        Arg("annotation files or folders"),
    ],
    format: Annotated[
        str | None, Arg("annotation format (default: detected)", choices=FORMATS)
    ] = None,
    uem: Annotated[Path | None, Arg("UEM file: each session's scored span (start, end)")] = None,
    encoding: Annotated[str | None, Arg("text encoding (default: detect UTF-8/UTF-16)")] = None,
    summary: Annotated[bool, Arg("print a table of the sessions instead of JSON lines")] = False,
) -> None:
    """Print the interaction features of every session of annotation files, one JSON line each.

    Folders are searched for annotation files. Duration comes from --uem (end
    minus start; the annotation is cropped to the span), else the annotation
    (TextGrid xmax, lhotse), else the last segment end. Each line says what
    the workflow would drop with a note and whether it would reject the session.
    """
    from msbench.features.describe import describe_paths, summary_table

    rows = describe_paths(annotations, format, str(uem) if uem else None, encoding)
    if summary:
        print(summary_table(rows))
    else:
        for row in rows:
            print(json.dumps(row, ensure_ascii=False))
