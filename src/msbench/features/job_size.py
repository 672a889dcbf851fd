"""What one audio job needs: memory and runtime from the audio it holds (a measured model).

Audio is read one channel at a time in blocks (:mod:`msbench.audio`), so a
job's memory does not depend on channels, and the acoustic job holds one
recording at a time (plus ``decode_workers`` decoded ahead), so it depends on
the batch's *longest* recording, not its total. Measured peak RSS
(``benchmarks/bench_memory.py``: generated 16 kHz meetings of 5 to 160
minutes with 1 and 8 channels, each rule's command in a fresh process under
``/usr/bin/time -v``; README "Memory and runtime"):

* acoustic: 1,416 / 1,471 / 1,623 / 1,993 MB at 5 / 20 / 60 / 160 minutes,
  the same for 1 and 8 channels, fitted as ``ACOUSTIC_BASE_MB +
  ACOUSTIC_MB_PER_MINUTE x longest minutes`` (1,400 + 3.8 x minutes: the
  base is the three models, onnxruntime's arenas and torch; the slope is the
  16 kHz float32 channel, 3.84 MB per minute), plus ``AUDIO_MB_PER_MINUTE``
  for each recording decoded ahead. The base is kept at 1,650, not the fitted
  1,400: a real job counts more than one process under ``/usr/bin/time``. The demo's
  AMI batch (half-minute recordings) peaked at 1,523 to 1,611 MB in msbench's own
  count and at 1,805 MiB in SLURM's (``sacct`` MaxRSS: jobacct_gather sums the step's
  processes), and SLURM killed its 1,800 MB request (CI, 2026-12-06, ``--retries 0``);
  1,650 asks 2,100 MB for it;
* DNSMOS's ``acoustic.dnsmos.block_windows`` (windows per call of the model's
  tail): the fit above is at the default 4; each window more adds
  ``DNSMOS_MB_PER_BLOCK_WINDOW`` (46 MB: peak RSS 1.37 GB at 4 and 1.92 GB at
  16 on 2 minutes of audio, config schema; 1.93 to 2.39 GB measured at 24 on
  the cluster, issue 38), fewer take nothing off;
* ``acoustic.mem_mb`` (and ``acoustic.runtime_min``) replace the model with the user's own
  first request; the workflow grows a retried job's request by what ran out
  (:mod:`msbench.cluster.retries`: a time-out doubles the runtime, a memory kill asks the
  larger of twice the memory and the ``predicted_mb`` below);
* units (the writer): 31 to 34 MB whatever the length (read, resampled and
  written block by block); ``UNITS_BASE_MB`` adds the stage's tables;
* ingest: 84 MB (1 channel) and 135 MB (8 channels), whatever the length.

A request is the prediction times ``margin`` (1.25), rounded up to 100 MB (the functions'
``attempt`` multiplies it, for callers that size retries by attempt alone). Runtime is the batch's audio hours at
``CPU_SECONDS_PER_AUDIO_HOUR`` (measured 248 to 282 wall seconds per audio
hour on one thread for 60 to 160 minutes; 300 kept) divided by the threads,
times ``SLOWDOWN`` (2, a loaded core), plus ``STARTUP_MINUTES``.

>>> acoustic_mem_mb(0), acoustic_mem_mb(160), acoustic_mem_mb(160, ahead_minutes=160)
(2100, 2900, 3600)
>>> acoustic_mem_mb(40, attempt=2) == 2 * acoustic_mem_mb(40)
True
>>> acoustic_runtime_minutes(16.7, threads=1)
172
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ACOUSTIC_BASE_MB = 1650.0  # fitted 1,400; what SLURM counts, above
ACOUSTIC_MB_PER_MINUTE = 3.8
AUDIO_MB_PER_MINUTE = 3.84  # 16 kHz x 60 s x 4 bytes
DNSMOS_MB_PER_BLOCK_WINDOW = 46.0
DNSMOS_FITTED_BLOCK_WINDOWS = 4
UNITS_BASE_MB = 400.0
UNITS_MB_PER_MINUTE = 0.0
CPU_SECONDS_PER_AUDIO_HOUR = 300.0
SLOWDOWN = 2.0
STARTUP_MINUTES = 5.0
UNITS_MINUTES_PER_AUDIO_HOUR = 2.0  # read, resample, write FLAC: measured 0.09 (x 20 kept)
MARGIN = 1.25
#: the evaluate job (benchmarks/bench_scoring.py: msbench score on 30 to 240-minute units peaks
#: at 110 to 380 MB, tcORC-WER's matching bounded to about 0.5 GB; 26 s at 160 and 78 s at
#: 240 minutes on one core)
EVALUATE_BASE_MB = 600.0
EVALUATE_MB_PER_MINUTE = 1.0
EVALUATE_SECONDS_PER_MINUTE = 0.05
EVALUATE_SECONDS_PER_MINUTE_SQUARED = 0.0013


def _request(megabytes: float, margin: float, attempt: int) -> int:
    """Round ``megabytes x margin`` up to 100 MB, times the attempt (1, 2, ...)."""
    return int(math.ceil(megabytes * margin / 100.0) * 100) * max(1, attempt)


def acoustic_mem_mb(
    longest_minutes: float,
    ahead_minutes: float = 0.0,
    margin: float = MARGIN,
    attempt: int = 1,
    block_windows: int = DNSMOS_FITTED_BLOCK_WINDOWS,
) -> int:
    """Memory to request (MB) for an acoustic job.

    ``longest_minutes``: its longest recording; ``ahead_minutes``: the audio
    that can be decoded ahead meanwhile (the next ``decode_workers`` longest);
    ``block_windows``: DNSMOS's windows per call.

    >>> acoustic_mem_mb(2, margin=1.0), acoustic_mem_mb(2, margin=1.0, block_windows=24)
    (1700, 2600)
    """
    extra_windows = max(0, block_windows - DNSMOS_FITTED_BLOCK_WINDOWS)
    peak = (
        ACOUSTIC_BASE_MB
        + ACOUSTIC_MB_PER_MINUTE * longest_minutes
        + AUDIO_MB_PER_MINUTE * ahead_minutes
        + DNSMOS_MB_PER_BLOCK_WINDOW * extra_windows
    )
    return _request(peak, margin, attempt)


def block_windows_of(acoustic: Mapping[str, Any]) -> int:
    """``acoustic.dnsmos.block_windows`` (4 when unset)."""
    return int((acoustic.get("dnsmos") or {}).get("block_windows", DNSMOS_FITTED_BLOCK_WINDOWS))


def units_mem_mb(longest_minutes: float, margin: float = MARGIN, attempt: int = 1) -> int:
    """Memory to request (MB) for the units job, whose longest unit lasts ``longest_minutes``."""
    return _request(UNITS_BASE_MB + UNITS_MB_PER_MINUTE * longest_minutes, margin, attempt)


def acoustic_runtime_minutes(audio_hours: float, threads: int = 1, attempt: int = 1) -> int:
    """Wall minutes to request for an acoustic job over ``audio_hours`` of audio."""
    cpu_minutes = audio_hours * CPU_SECONDS_PER_AUDIO_HOUR / 60.0
    return int(math.ceil(STARTUP_MINUTES + SLOWDOWN * cpu_minutes / max(1, threads))) * max(
        1, attempt
    )


def units_job(benchmark: str | Path, attempt: int = 1) -> dict[str, float]:
    """Resources of the units job (``mem_mb``, ``runtime``) from the selected recordings."""
    from msbench.catalog import BENCHMARK
    from msbench.tables import read_rows

    lengths = [float(r.get("duration_seconds") or 0.0) for r in read_rows(BENCHMARK, benchmark)]
    hours = sum(lengths) / 3600.0
    return {
        "mem_mb": units_mem_mb(max(lengths, default=0.0) / 60.0, attempt=attempt),
        "predicted_mb": units_mem_mb(max(lengths, default=0.0) / 60.0),
        "runtime": int(math.ceil(STARTUP_MINUTES + UNITS_MINUTES_PER_AUDIO_HOUR * hours))
        * max(1, attempt),
        "audio_hours": hours,
    }


def evaluate_mem_mb(longest_minutes: float, margin: float = MARGIN, attempt: int = 1) -> int:
    """Memory to request (MB) for an evaluate job whose longest unit lasts ``longest_minutes``.

    Scoring holds one unit at a time, in memory linear in its tokens
    (:mod:`msbench.scoring.matching.permutation`, :mod:`msbench.scoring.matching.banded`),
    plus tcORC-WER's matching, bounded by ``TCORC_MAX_STATES``.

    >>> evaluate_mem_mb(160), evaluate_mem_mb(160, attempt=2)
    (1000, 2000)
    """
    return _request(EVALUATE_BASE_MB + EVALUATE_MB_PER_MINUTE * longest_minutes, margin, attempt)


def evaluate_runtime_minutes(unit_minutes: list[float], attempt: int = 1) -> int:
    """Wall minutes to request for an evaluate job over units of ``unit_minutes``.

    Scoring time grows with the square of a unit's length (meeteval's
    Levenshtein distances fill every cell, in one row of memory):
    ``EVALUATE_SECONDS_PER_MINUTE_SQUARED x minutes^2`` per unit, plus the
    linear part, times ``SLOWDOWN``.

    >>> evaluate_runtime_minutes([160.0]), evaluate_runtime_minutes([30.0] * 10)
    (7, 6)
    """
    seconds = sum(
        EVALUATE_SECONDS_PER_MINUTE * m + EVALUATE_SECONDS_PER_MINUTE_SQUARED * m * m
        for m in unit_minutes
    )
    return int(math.ceil(STARTUP_MINUTES + SLOWDOWN * seconds / 60.0)) * max(1, attempt)


def evaluate_job(benchmark: str | Path, attempt: int = 1) -> dict[str, float]:
    """Resources of one system's evaluate job (``mem_mb``, ``runtime``) from the selected recordings.

    A unit is at most a recording, so the longest recording bounds the longest unit.
    """
    from msbench.catalog import BENCHMARK
    from msbench.tables import read_rows

    lengths = [
        float(r.get("duration_seconds") or 0.0) / 60.0 for r in read_rows(BENCHMARK, benchmark)
    ]
    return {
        "mem_mb": evaluate_mem_mb(max(lengths, default=0.0), attempt=attempt),
        "predicted_mb": evaluate_mem_mb(max(lengths, default=0.0)),
        "runtime": evaluate_runtime_minutes(lengths, attempt),
        "longest_minutes": max(lengths, default=0.0),
    }


def memory_line(recording: Any, mem_mb: int | None, block_windows: int = 4) -> str:
    """The log line written before a recording: its length, its expected peak, the job's memory
    (kept across a retry: the rules append to their logs)."""
    import resource

    from msbench.audio import file_seconds

    minutes = file_seconds(recording.audio_path, recording.duration_seconds) / 60.0
    expected = acoustic_mem_mb(minutes, margin=1.0, block_windows=block_windows)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    given = f" of the job's {mem_mb} MB" if mem_mb else ""
    warning = (
        f"; WARNING: more than the job's {mem_mb} MB: if it is killed, the retry asks for the "
        "larger of twice that and this peak (msbench.cluster.retries); or set acoustic.mem_mb "
        "in the config, or lower acoustic.batch_hours"
        if mem_mb and expected > mem_mb
        else ""
    )
    return (
        f"[acoustic] {recording.recording_id}: {minutes:.1f} min of audio, expected peak "
        f"{expected} MB{given} (peak so far {peak:.0f} MB){warning}"
    )
