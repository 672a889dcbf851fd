"""What the five analyses read: one system's diagnostics rows and the benchmark's conditions.

Recordings are indexed in benchmark order (the bootstrap's clusters). Only
units that were scored (not excluded) contribute: ``utterance_scores.csv`` and
``pairs.csv`` hold scored units only, and excluded units are dropped here from
``units.csv``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

Row = dict[str, Any]


@dataclass(frozen=True)
class Recording:
    recording_id: str
    source: str
    speaker_range: str  # the P label
    speakers: int
    overlap_ratio: float
    d_n: float | None


@dataclass
class SystemTables:
    system_id: str
    system: str
    recordings: list[Recording]
    units: list[Row]
    utterances: list[Row]
    pairs: list[Row]
    similarity: dict[str, dict[tuple[str, str], float]] = field(default_factory=dict)

    @property
    def index(self) -> dict[str, int]:
        return {r.recording_id: k for k, r in enumerate(self.recordings)}

    def per_recording(self, rows: Iterable[Row], value: Callable[[Row], float]) -> np.ndarray:
        """``value(row)`` summed per recording, in benchmark order."""
        index, out = self.index, np.zeros(len(self.recordings))
        for row in rows:
            k = index.get(str(row["recording_id"]))
            if k is not None:
                out[k] += value(row)
        return out


def recordings_of(benchmark: Iterable[Row]) -> list[Recording]:
    return [
        Recording(
            str(r["recording_id"]),
            str(r["source_dataset"]),
            str(r["P"]),
            int(r["num_speakers"]),
            float(r["overlap_ratio"]),
            None if r.get("noise_difficulty") is None else float(r["noise_difficulty"]),
        )
        for r in benchmark
    ]


def read_similarity(path: Path) -> dict[str, dict[tuple[str, str], float]]:
    """Per recording, ``(speaker id i, speaker id j) -> cosine`` from speaker_similarity.jsonl."""
    out: dict[str, dict[tuple[str, str], float]] = {}
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            if not line.strip():
                continue
            entry = json.loads(line)
            rid, labels = entry["recording_id"], entry["speakers"]
            ids = [f"{rid}::{label}" for label in labels]
            out[rid] = {
                (a, b): float(entry["matrix"][i][j])
                for i, a in enumerate(ids)
                for j, b in enumerate(ids)
                if i != j
            }
    return out


def load_system(
    folder: Path, benchmark: Iterable[Row], similarity: Path | None = None
) -> SystemTables:
    """One system's evaluation folder (unit_scores.csv, utterance_scores.csv, pairs.csv,
    score_summary.json)."""
    from msbench.catalog import PAIRS, SCORE_SUMMARY, UNIT_SCORES, UTTERANCE_SCORES, system_file
    from msbench.tables import read_rows

    summary = json.loads(system_file(folder, SCORE_SUMMARY).read_text(encoding="utf-8"))
    units = [
        r
        for r in read_rows(UNIT_SCORES, system_file(folder, UNIT_SCORES.name))
        if r["status"] != "excluded"
    ]
    return SystemTables(
        system_id=str(summary["system_id"]),
        system=str(summary["system"]),
        recordings=recordings_of(benchmark),
        units=units,
        utterances=read_rows(UTTERANCE_SCORES, system_file(folder, UTTERANCE_SCORES.name)),
        pairs=read_rows(PAIRS, folder / PAIRS.name),
        similarity=read_similarity(similarity) if similarity else {},
    )
