"""One file as the readers and detectors of :mod:`msbench.io` see it: its path, its text, the
session it is scored as, and its content parsed once (JSON, whitespace-split lines).

Every scoring reader of the registry takes a :class:`Sample` and returns
:class:`msbench.records.Segment` s; every detector takes one and says whether the content is
its format. Parsing happens at most once per file whatever the number of detectors asking.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from msbench.textio import split_lines

#: What :attr:`Sample.data` is when the text is not one JSON document.
NOT_JSON = object()


@dataclass
class Sample:
    """``path``: where the text came from (named in every message); ``session``: the session
    id a format without one is scored as (the unit's id, else the file name's stem);
    ``pattern``: a timestamped-text line pattern (a system's ``text_pattern``)."""

    path: str | Path
    text: str
    session: str
    pattern: str | None = None
    encoding: str | None = None

    @cached_property
    def stripped(self) -> str:
        return self.text.lstrip("\ufeff \n\t")

    @cached_property
    def data(self) -> Any:
        """The text as one JSON document, else :data:`NOT_JSON`."""
        if not self.stripped.startswith(("[", "{")):
            return NOT_JSON
        try:
            return json.loads(self.text)
        except json.JSONDecodeError:
            return NOT_JSON

    @cached_property
    def fields(self) -> list[list[str]]:
        """The whitespace-split fields of each line that is not blank or a ``;;`` comment."""
        return [
            line.split()
            for line in split_lines(self.text)
            if line.strip() and not line.startswith(";;")
        ]
