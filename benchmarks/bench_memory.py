"""Peak memory of the audio rules against audio minutes and channels: the data behind the memory model.

For each generated meeting (``long_meetings.py``: 16 kHz FLAC, 1 or 8
channels, with an RTTM) this runs the rules' own commands, each in a fresh
process under ``/usr/bin/time -v``, and reads its peak RSS ("Maximum resident
set size") and wall time:

* ``ingest``: ``msbench ingest`` on a one-row sheet (header and full decode);
* ``acoustic``: ``msbench acoustic`` on that source (CAM++, DNSMOS, NISQA,
  one thread, no decode-ahead unless ``--decode-workers``);
* ``units``: the recording written as one unit (the units rule's default,
  whole recordings), by :func:`msbench.scoring.unit_audio.write_unit_audio`.

It then fits ``peak = base + slope * minutes`` per rule by least squares and
prints the fit beside what :mod:`msbench.features.job_size` predicts, so the
model in the package can be checked against a fresh measurement on any
machine.

    python benchmarks/bench_memory.py --minutes 5 20 60 --channels 1 8
    python benchmarks/bench_memory.py --minutes 160 --channels 8   # the long check
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_meetings import REPO, write_meeting  # noqa: E402

MODELS = REPO.parent / "shared" / "models"
UNIT_SCRIPT = """
import sys
from types import SimpleNamespace
from pathlib import Path
from msbench.scoring.unit_audio import write_unit_audio
import soundfile
path = sys.argv[1]
seconds = soundfile.info(path).duration
write_unit_audio({"audio_path": path, "channel": 0}, SimpleNamespace(start=0.0, end=seconds), Path(sys.argv[2]))
"""


def peak_of(command: list[str], log: Path) -> tuple[float, float]:
    """(peak RSS in MB, wall seconds) of one command run under /usr/bin/time -v."""
    began = time.perf_counter()
    result = subprocess.run(
        ["/usr/bin/time", "-v", *command], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - began
    log.write_text(result.stdout + result.stderr)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed (rc {result.returncode}); see {log}")
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", result.stderr)
    assert found, result.stderr[-2000:]
    return int(found.group(1)) / 1024, wall


def measure(audio_dir: Path, minutes: float, channels: int, workers: int) -> dict[str, float]:
    flac, rttm = write_meeting(audio_dir / f"{minutes:g}m{channels}", minutes, channels)
    work = Path(tempfile.mkdtemp(prefix="msbench-memory-"))
    sheet = work / "datasets.tsv"
    sheet.write_text(
        "name\tadapter\tannotations\taudio\tuem\ttranscripts\tlanguage\tscenario\tdevice\tchannel\n"
        f"long\trttm\t{rttm.parent}/*.rttm\t{flac.parent}/{{session}}.flac\t\t\tEnglish\tMeeting\tarray\t0\n"
    )
    config = work / "config.yaml"
    config.write_text(
        f"datasets: {sheet}\nmodels:\n  search_dirs: [{MODELS}]\n"
        f"acoustic:\n  threads: 1\n  decode_workers: {workers}\n"
    )
    msbench = str(Path(sys.executable).with_name("msbench"))
    row: dict[str, float] = {"minutes": minutes, "channels": channels}
    ingest = work / "ingest"
    row["ingest_mb"], row["ingest_s"] = peak_of(
        [msbench, "ingest", "--sheet", str(sheet), "--source", "long", "--out-dir", str(ingest)],
        work / "ingest.log",
    )
    acoustic = [
        msbench, "acoustic", "--ingested", str(ingest / "recordings.jsonl"),
        "--out", str(work / "features.jsonl"), "--rejected", str(work / "rejected.jsonl"),
        "--similarity", str(work / "similarity.jsonl"), "--config", str(config),
    ]  # fmt: skip
    row["acoustic_mb"], row["acoustic_s"] = peak_of(acoustic, work / "acoustic.log")
    rejected = (work / "rejected.jsonl").read_text().strip()
    assert not rejected, rejected
    row["units_mb"], row["units_s"] = peak_of(
        [sys.executable, "-c", UNIT_SCRIPT, str(flac), str(work / "unit.flac")], work / "units.log"
    )
    row["features"] = (work / "features.jsonl").read_text()  # type: ignore[assignment]
    return row


def fit(rows: list[dict[str, float]], rule: str) -> tuple[float, float]:
    """Least-squares (base MB, MB per audio minute) of a rule's peak."""
    x = np.array([r["minutes"] for r in rows], dtype=float)
    y = np.array([r[f"{rule}_mb"] for r in rows], dtype=float)
    if len(set(x)) < 2:
        return float(y.mean()), float("nan")
    slope, base = np.polyfit(x, y, 1)
    return float(base), float(slope)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, nargs="+", default=[5, 20, 60])
    parser.add_argument("--channels", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--decode-workers", type=int, default=1)
    parser.add_argument("--audio", type=Path, default=Path(tempfile.gettempdir()) / "msbench-long")
    parser.add_argument("--json", type=Path, help="also write the rows here")
    args = parser.parse_args()

    from msbench.features.job_size import acoustic_mem_mb, units_mem_mb

    rows = []
    print(
        "| minutes | channels | ingest MB | acoustic MB (model) | acoustic s | units MB (model) |"
    )
    print("|---|---|---|---|---|---|")
    for minutes in args.minutes:
        for channels in args.channels:
            row = measure(args.audio, minutes, channels, args.decode_workers)
            rows.append(row)
            print(
                f"| {minutes:g} | {channels} | {row['ingest_mb']:.0f} | {row['acoustic_mb']:.0f}"
                f" ({acoustic_mem_mb(minutes, margin=1.0):.0f})"
                f" | {row['acoustic_s']:.0f} | {row['units_mb']:.0f}"
                f" ({units_mem_mb(minutes, margin=1.0):.0f}) |",
                flush=True,
            )
    for rule in ("ingest", "acoustic", "units"):
        base, slope = fit(rows, rule)
        print(f"fit {rule}: peak MB = {base:.0f} + {slope:.2f} x audio minutes")
    same = {}
    for row in rows:
        same.setdefault(row["minutes"], set()).add(
            json.dumps(json.loads(row["features"]) | {"recording_id": ""})
        )
    for minutes, variants in same.items():
        print(f"{minutes:g} min: features identical across channel counts: {len(variants) == 1}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
