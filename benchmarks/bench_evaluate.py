"""A whole-benchmark evaluation of one system at MS-Bench's size: the evaluate rule's time and memory.

The benchmark is MS-Bench's release (``../shared/data/msbench-release/metadata.jsonl``: 99
recordings, 32.7 hours): each recording keeps its id, duration, speaker count and language,
and gets a seeded transcript of that length (``long_transcripts.py``: real AMI turn-taking,
generated English words or Chinese characters at 4.5 tokens a second) and a system output
with 12 % substitutions, 5 % deletions, 0.3 s jitter and relabelled speakers. Units are whole
recordings (the units rule's default).

``msbench evaluate`` (what the evaluate rule runs: every metric, the diagnosis, the word
views) runs in a fresh process under ``/usr/bin/time -v``, once per thread count; printed:
wall seconds, CPU seconds, peak RSS, tokens, and the largest unit.

    python benchmarks/bench_evaluate.py                  # --threads 1 2
    python benchmarks/bench_evaluate.py --recordings 20  # the first 20 only
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_transcripts import REPO, hypothesis, reference  # noqa: E402

RELEASE = REPO.parent / "shared" / "data" / "msbench-release" / "metadata.jsonl"
BIN = Path(sys.executable).parent


def write_benchmark(folder: Path, count: int | None) -> tuple[int, float, int]:
    """benchmark.csv, utterances.csv and the system's outputs; (recordings, hours, tokens)."""
    from msbench import catalog
    from msbench.scoring.units import benchmark_units
    from msbench.tables import write_rows

    release = [json.loads(line) for line in RELEASE.read_text(encoding="utf-8").splitlines()]
    release = release[:count] if count else release
    benchmark, utterances, tokens = [], [], 0
    outputs = folder / "outputs"
    outputs.mkdir(parents=True)
    lines_of = {}
    for k, row in enumerate(release):
        language = "zh" if row["language"] == "Chinese" else "en"
        lines = reference(row["duration_seconds"] / 60, row["num_speakers"], language, seed=k)
        lines_of[row["recording_id"]] = (lines, language, k)
        tokens += sum(len(line.words) for line in lines)
        benchmark.append(
            {"recording_id": row["recording_id"], "source_dataset": row["source_dataset"],
             "language": row["language"], "duration_seconds": row["duration_seconds"],
             "P": row["conditions"]["P"], "num_speakers": row["num_speakers"],
             "overlap_ratio": row["overlap_ratio"], "noise_difficulty": row["noise_difficulty"]}
        )  # fmt: skip
        utterances += [
            {"recording_id": row["recording_id"], "speaker": line.speaker,
             "start_time": line.start, "end_time": line.end, "words": " ".join(line.words)}
            for line in lines
        ]  # fmt: skip
    write_rows(catalog.BENCHMARK, folder / "benchmark.csv", benchmark)
    write_rows(catalog.UTTERANCES, folder / "utterances.csv", utterances)
    entry = {"id": "bench", "outputs": str(outputs)}
    for unit in benchmark_units(entry, benchmark):
        lines, language, k = lines_of[unit.recording_id]
        said = hypothesis(lines, language, seed=1000 + k)
        text = "".join(
            f"{unit.unit_id} 1 {line.speaker} {line.start:.2f} {line.end:.2f} {' '.join(line.words)}\n"
            for line in said
        )
        (outputs / f"{unit.unit_id}.stm").write_text(text, encoding="utf-8")
    hours = sum(r["duration_seconds"] for r in release) / 3600
    return len(release), hours, tokens


def timed_evaluate(folder: Path, threads: int) -> dict[str, float]:
    out = folder / f"evaluation{threads}"
    command = [
        "/usr/bin/time", "-v", str(BIN / "msbench"), "-q", "evaluate", "--outputs",
        str(folder / "outputs"), "--benchmark", str(folder / "benchmark.csv"), "--utterances",
        str(folder / "utterances.csv"), "--system-id", "bench", "--out-dir", str(out),
        "--threads", str(threads),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"msbench evaluate failed:\n{done.stderr[-2000:]}")

    def field(pattern: str) -> float:
        found = re.search(pattern, done.stderr)
        if found is None:
            raise SystemExit(f"no {pattern!r} in /usr/bin/time's report")
        return float(found.group(1))

    with (out / "unit_scores.csv").open(encoding="utf-8") as table:
        rows = list(csv.DictReader(table))
    statuses = [row["status"] for row in rows]
    for row in rows:
        if row["status"] == "excluded":
            print(f"  excluded {row['unit_id']}: {row['reason']}", flush=True)
    return {
        "wall_s": _wall(done.stderr),
        "cpu_s": field(r"User time \(seconds\): ([\d.]+)") + field(r"System time \(seconds\): ([\d.]+)"),
        "peak_mb": field(r"Maximum resident set size \(kbytes\): (\d+)") / 1024,
        "scored": sum(status != "excluded" for status in statuses),
    }  # fmt: skip


def _wall(report: str) -> float:
    """``/usr/bin/time -v``'s elapsed time (``h:mm:ss`` or ``m:ss.ss``) in seconds."""
    found = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)", report)
    if found is None:
        raise SystemExit("no elapsed time in /usr/bin/time's report")
    seconds = 0.0
    for part in found.group(1).split(":"):
        seconds = seconds * 60 + float(part)
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recordings", type=int, help="only the first N of the release")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        recordings, hours, tokens = write_benchmark(folder, args.recordings)
        print(f"{recordings} recordings, {hours:.1f} h, {tokens:,} reference tokens")
        print("| threads | wall s | CPU s | peak MB | units scored |")
        print("|---|---|---|---|---|")
        for threads in args.threads:
            row = timed_evaluate(folder, threads)
            print(f"| {threads} | {row['wall_s']:.0f} | {row['cpu_s']:.0f} | "
                  f"{row['peak_mb']:.0f} | {row['scored']:.0f} of {recordings} |", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
