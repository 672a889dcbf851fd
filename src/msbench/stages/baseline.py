"""``msbench baseline``: the cascaded baseline on every inference unit; SegLST per unit and a sidecar."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, RuntimeJson, SettingsJson, resolve_settings


def run(
    units: Annotated[Path, Arg("units.csv of msbench units (audio next to it, in audio/)")],
    benchmark: Annotated[Path, Arg("benchmark.csv (the language of each recording)")],
    out_dir: Annotated[Path, Arg("folder for <unit_id>.json and baseline.json")],
    config: ConfigPath = None,
    settings: SettingsJson = None,
    runtime: RuntimeJson = None,
) -> None:
    """Run Silero VAD, CAM++ clustering and faster-whisper on each unit; write SegLST per unit.

    baseline.json: device, threads, model versions and weights, per-unit and
    total run time and x real time. A unit that fails is written as
    <unit_id>.refused with the reason (the evaluation counts it as excluded).
    """
    from msbench.baseline.run import run_units
    from msbench.catalog import BENCHMARK
    from msbench.scoring.units import read_units
    from msbench.tables import read_rows
    from msbench.textio import write_json

    resolved = resolve_settings(config, settings, runtime)
    languages = {
        str(r["recording_id"]): str(r.get("language") or "")
        for r in read_rows(BENCHMARK, benchmark)
    }
    sidecar = run_units(read_units(units), units.parent / "audio", languages, resolved, out_dir)
    write_json(out_dir / "baseline.json", sidecar)
