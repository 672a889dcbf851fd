"""``msbench units``: the benchmark's inference units: units.csv and one 16 kHz FLAC per unit."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


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
    from msbench.catalog import BENCHMARK, RECORDINGS, UNITS
    from msbench.scoring.unit_audio import write_unit_audio
    from msbench.scoring.units import cut_benchmark, read_references
    from msbench.tables import nonempty, read_rows, write_rows

    section = resolve_settings(config, settings)["units"]
    selected = nonempty(read_rows(BENCHMARK, benchmark), benchmark)
    audio = {r["recording_id"]: r for r in read_rows(RECORDINGS, recordings)}
    units = cut_benchmark(selected, read_references(utterances), section)
    for unit in units:
        write_unit_audio(audio[unit.recording_id], unit, out_dir / "audio" / f"{unit.unit_id}.flac")
    write_rows(UNITS, out_dir / UNITS.name, [vars(u) for u in units])
