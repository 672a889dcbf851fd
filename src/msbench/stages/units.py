"""``msbench units``: the benchmark's inference units: units.csv and one 16 kHz FLAC per unit."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

from msbench.scoring.units import Unit
from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings

UNITS_COLUMNS = ("unit_id", "recording_id", "start", "end")


def run(
    benchmark: Annotated[Path, Arg("benchmark.csv (the selected recordings)")],
    recordings: Annotated[Path, Arg("recordings.csv (audio path and channel of each)")],
    utterances: Annotated[Path, Arg("utterances.csv (reference speech: cuts go in silences)")],
    out_dir: Annotated[Path, Arg("folder for units.csv and audio/<unit_id>.flac")],
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Cut the benchmark into inference units and write their audio (16 kHz mono FLAC).

    Whole recordings by default; with units.max_unit_seconds, units of at most
    that length, each cut in the longest reference silence of the last
    units.search_seconds before the limit. units.csv (unit_id, recording_id,
    start, end) is what a system's outputs are scored against.
    """
    from msbench.scoring.units import recording_spans, silence_cuts
    from msbench.stages.evaluate import references
    from msbench.tables import read_table, write_csv
    from msbench.timeline import SpeakerTimeline

    section = resolve_settings(config, settings)["units"]
    audio = {str(r["recording_id"]): r for r in read_table(recordings)}
    speech = {
        rid: SpeakerTimeline.from_segments(
            (s.speaker, s.start_time, s.end_time) for s in segments
        ).speech()
        for rid, segments in references(utterances).items()
    }
    units = []
    for row in read_table(benchmark):
        rid = str(row["recording_id"])
        units += silence_cuts(
            rid,
            recording_spans(row),
            speech.get(rid, []),
            section["max_unit_seconds"],
            float(section["search_seconds"]),
        )
    for unit in units:
        write_unit_audio(audio[unit.recording_id], unit, out_dir / "audio" / f"{unit.unit_id}.flac")
    write_csv(out_dir / "units.csv", [vars(u) for u in units], UNITS_COLUMNS)


def write_unit_audio(recording: Mapping[str, Any], unit: Unit, path: Path) -> None:
    """``[start, end)`` of the recording's channel, 16 kHz mono 16-bit FLAC, written atomically."""
    import os

    import numpy as np
    import soundfile

    from msbench.audio import read_channel

    channel = int(recording.get("channel") or 0)
    samples, rate = read_channel(recording["audio_path"], channel, unit.start, unit.end)
    if rate != 16000:
        import soxr

        samples = soxr.resample(samples, rate, 16000, quality="HQ").astype(np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.tmp.flac")
    soundfile.write(temporary, np.clip(samples, -1.0, 1.0), 16000, subtype="PCM_16", format="FLAC")
    os.replace(temporary, path)
