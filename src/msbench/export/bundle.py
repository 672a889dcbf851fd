"""What every export reads: the run's selected recordings, their reference utterances, the units.

Times are kept as the manifests write them (seconds, up to 6 decimals): no
export adds, rounds or shifts a time except a cut's supervisions, which are
moved into unit time by exact decimal subtraction (:func:`msbench.timeline.exact_difference`); durations likewise.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from msbench.catalog import BENCHMARK, RECORDINGS, UTTERANCES
from msbench.columns import AXES, FEATURE_FIELDS
from msbench.rows import BenchmarkRow, RecordingRow
from msbench.scoring.units import Unit, read_units, recording_spans
from msbench.tables import nonempty, read_rows

#: Benchmark columns that describe a recording's conditions and features (kept in exports).
CONDITION_FIELDS = ("profile", *AXES, *FEATURE_FIELDS, "duration_seconds")


@dataclass(frozen=True)
class Utterance:
    recording_id: str
    speaker: str
    start: float
    end: float
    words: str
    overlap_exposure: float | None


@dataclass(frozen=True)
class Bundle:
    selected: list[BenchmarkRow]
    audio: dict[str, RecordingRow]
    utterances: dict[str, list[Utterance]]
    units: list[Unit]
    unit_audio: Path
    activity: dict[str, list[Utterance]]  # the annotation's turns: what the features come from
    licences: dict[str, tuple[str, str]] = field(
        default_factory=dict
    )  # source -> (licence, citation)

    def conditions(self, recording_id: str) -> dict[str, object]:
        """The recording's condition labels and features, and its source's licence and citation."""
        row = next(r for r in self.selected if r["recording_id"] == recording_id)
        licence, citation = self.licences.get(str(row["source_dataset"]), ("", ""))
        return {
            **{k: row.get(k) for k in CONDITION_FIELDS},
            "licence": licence,
            "citation": citation,
        }

    def unit_utterances(self, unit: Unit) -> list[Utterance]:
        """The unit's reference: utterances whose midpoint lies in it (scoring's rule,
        :func:`msbench.scoring.units.unit_reference`)."""
        return [
            u
            for u in self.utterances.get(unit.recording_id, [])
            if unit.start <= (u.start + u.end) / 2 < unit.end
        ]


def read_activity(ingested: Sequence[Path], kept: set[str]) -> dict[str, list[Utterance]]:
    """Each kept recording's annotation turns (speaker ids namespaced as the manifests')."""
    from msbench.catalog import INGESTED
    from msbench.records import IngestedRecording

    turns: dict[str, list[Utterance]] = {}
    for path in ingested:
        for row in read_rows(INGESTED, path):
            item = IngestedRecording.from_dict(row)
            rid = item.recording.recording_id
            if rid in kept:
                turns[rid] = [
                    Utterance(
                        rid, f"{rid}::{s.speaker}", s.start_time, s.end_time, s.words or "", None
                    )
                    for s in item.segments
                ]
    return turns


def read_bundle(
    benchmark: Path,
    recordings: Path,
    utterances: Path,
    units: Path,
    unit_audio: Path,
    ingested: Sequence[Path] = (),
    licences: dict[str, tuple[str, str]] | None = None,
) -> Bundle:
    """The run's manifests as one bundle (the selection must be non-empty); ``licences``:
    source -> (licence, citation), from the dataset sheet."""
    selected = nonempty(read_rows(BENCHMARK, benchmark), benchmark)
    kept = {r["recording_id"] for r in selected}
    audio = {
        r["recording_id"]: r for r in read_rows(RECORDINGS, recordings) if r["recording_id"] in kept
    }
    by_recording: dict[str, list[Utterance]] = {}
    for row in read_rows(UTTERANCES, utterances):
        if row["recording_id"] in kept:
            by_recording.setdefault(row["recording_id"], []).append(
                Utterance(
                    row["recording_id"],
                    row["speaker"],
                    row["start_time"],
                    row["end_time"],
                    row.get("words") or "",
                    row.get("overlap_exposure"),
                )
            )
    spans = {r["recording_id"]: recording_spans(r) for r in selected}
    cut = [replace(u, scored=spans.get(u.recording_id, ())) for u in read_units(units)]
    activity = read_activity(ingested, kept)
    return Bundle(selected, audio, by_recording, cut, unit_audio, activity, licences or {})


def write_jsonl_gz(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    """JSON Lines, gzip-compressed without a time stamp (the same rows give the same bytes)."""
    import gzip
    import json

    from msbench.textio import make_folder

    make_folder(path.parent)
    text = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    temporary.replace(path)
