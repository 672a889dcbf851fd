"""The dataset sheet (``config/datasets.tsv``): one row per source corpus.

Columns (tab-separated, header required; empty cells take the default):

==============  ================================================================
``name``        source name, used in recording ids ``<name>::<session>``
``adapter``     ``rttm`` | ``stm`` | ``textgrid`` | ``chime`` | ``notsofar`` |
                ``seglst`` | ``lhotse``
``annotations`` glob of annotation files (lhotse: supervisions manifest)
``audio``       audio path pattern with ``{session}`` (lhotse/CHiME: optional,
                lhotse takes the recording's own source)
``uem``         glob of UEM files: each session's scored span (crop, duration)
``transcripts`` glob of STM or SegLST files with the words (for RTTM)
``recordings``  lhotse only: recordings manifest
``language``    e.g. ``English``
``scenario``    e.g. ``Meeting``
``device``      recording device, free text (``recording_device`` in manifests)
``channel``     0-based channel of multi-channel audio (default 0)
``encoding``    text encoding of the annotations (default: detect UTF-8/16)
==============  ================================================================

Relative paths are relative to the working directory (the repository root
when run by Snakemake).
"""

from __future__ import annotations

import csv
import glob
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from msbench.config import validate_against
from msbench.errors import ConfigError
from msbench.textio import read_text


@dataclass(frozen=True)
class SourceSpec:
    name: str
    adapter: str
    annotations: str
    audio: str = ""
    uem: str = ""
    transcripts: str = ""
    recordings: str = ""
    language: str = ""
    scenario: str = ""
    device: str = ""
    channel: int = 0
    encoding: str = ""

    def annotation_files(self) -> list[str]:
        return expand_glob(self.annotations)

    def audio_path(self, session: str) -> str:
        return self.audio.replace("{session}", session) if self.audio else ""


def expand_glob(pattern: str) -> list[str]:
    """Sorted matches of a glob (``**`` allowed); empty pattern -> []."""
    if not pattern:
        return []
    return sorted(glob.glob(pattern, recursive=True))


def read_dataset_sheet(path: str | Path) -> list[SourceSpec]:
    text = read_text(path)
    rows = list(csv.DictReader(text.splitlines(), delimiter="\t"))
    known = {f.name for f in fields(SourceSpec)}
    specs = []
    for number, row in enumerate(rows, start=2):
        cleaned = {key.strip(): (value or "").strip() for key, value in row.items() if key}
        unknown = sorted(set(cleaned) - known)
        if unknown:
            raise ConfigError(f"{path}: unknown column(s) {unknown}; allowed: {sorted(known)}")
        values: dict[str, Any] = {key: value for key, value in cleaned.items() if value != ""}
        if "channel" in values:
            try:
                values["channel"] = int(values["channel"])
            except ValueError as error:
                raise ConfigError(f"{path}:line {number}: channel must be an integer") from error
        validate_against("datasets.schema.yaml", values, f"{path}:line {number}")
        specs.append(SourceSpec(**values))
    names = [spec.name for spec in specs]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ConfigError(f"{path}: source name(s) listed twice: {duplicates}")
    if not specs:
        raise ConfigError(f"{path}: the dataset sheet lists no source")
    return specs


def find_source(specs: list[SourceSpec], name: str) -> SourceSpec:
    for spec in specs:
        if spec.name == name:
            return spec
    raise ConfigError(f"source {name!r} is not in the dataset sheet ({[s.name for s in specs]})")
