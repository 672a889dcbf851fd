"""A probe set made from every demo recording (14 AMI clips, the ES2004a excerpt, the
two-speaker sample), with their words.

Ingest and interaction run as the workflow runs them (no models); the condition
labels of recordings.csv are made up here (stated): the probes only carry them.
"""

from __future__ import annotations

import json
from pathlib import Path

from msbench.catalog import RECORDINGS, SOURCE_UTTERANCES, UTTERANCES
from msbench.stages import ingest, interaction, probes
from msbench.tables import read_rows, write_rows
from msbench.textio import read_jsonl
from tests.helpers.paths import REPO

SOURCES = ("ami", "es2004a", "two_speaker")
MADE_UP_LABELS = ("P1", "O2", "S1", "T2", "N0")
RECORDING_COLUMNS = (
    "recording_id", "source_dataset", "duration_seconds", "audio_path", "channel",
    "num_speakers", "P", "O", "S", "T", "N",
)  # fmt: skip


def demo_sheet(folder: Path) -> Path:
    """The demo's dataset sheet with absolute paths."""
    folder.mkdir(parents=True, exist_ok=True)
    text = (REPO / "resources/demo/datasets.tsv").read_text(encoding="utf-8")
    sheet = folder / "datasets.tsv"
    sheet.write_text(text.replace("resources/", f"{REPO}/resources/"), encoding="utf-8")
    return sheet


def probe_inputs(folder: Path) -> tuple[Path, Path]:
    """recordings.csv and utterances.csv of the demo's ami and es2004a sources."""
    sheet = demo_sheet(folder)
    recordings, utterances = [], []
    for source in SOURCES:
        ingest.run(sheet, source, folder / source)
        interaction.run(
            folder / source / "recordings.jsonl",
            folder / f"{source}.jsonl",
            folder / f"{source}.csv",
        )
        for row in read_jsonl(folder / source / "recordings.jsonl"):
            speakers = {s["speaker"] for s in row["segments"]}
            labels = dict(zip("POSTN", MADE_UP_LABELS, strict=True))
            recordings.append({**row["recording"], "num_speakers": len(speakers), **labels})
        utterances += read_rows(SOURCE_UTTERANCES, folder / f"{source}.csv")
    write_rows(RECORDINGS, folder / "recordings.csv", recordings, columns=RECORDING_COLUMNS)
    write_rows(UTTERANCES, folder / "utterances.csv", utterances)
    return folder / "recordings.csv", folder / "utterances.csv"


def make_probe_set(
    folder: Path, runtime: dict[str, object] | None = None, **overrides: object
) -> Path:
    recordings, utterances = probe_inputs(folder / "inputs")
    settings = {"probes": {"seed": 0, **overrides}}
    ingested = tuple(folder / "inputs" / source / "recordings.jsonl" for source in SOURCES)
    probes.run(
        recordings=recordings,
        utterances=utterances,
        out_dir=folder / "probes",
        ingested=ingested,
        settings=json.dumps(settings),
        runtime=json.dumps(runtime) if runtime else None,
    )
    return folder / "probes"
