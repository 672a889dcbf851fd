"""The cascaded baseline's recogniser and hallucination guards, compared on one benchmark in one run.

Each variant runs ``msbench baseline`` on the benchmark's units (the same
units, the same VAD and clustering) with its ``baseline.asr`` settings, then
``msbench evaluate`` scores it; the table gives DER, cpWER, tcpWER, WER, the
soft-degradation and exclusion counts, the longest run of one repeated word in
any hypothesis (the hallucination the guards target), and CPU seconds per
audio minute of the baseline process.

    scripts/run_demo.sh   # makes results/units and results/manifests
    python benchmarks/bench_baseline.py --config resources/demo/config.yaml
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

GUARDS = {"vad_filter": True, "no_repeat_ngram_size": 3}
NO_GUARDS = {"vad_filter": False, "no_repeat_ngram_size": 0}
VARIANTS = {
    "tiny.en": {"model": "tiny.en", **NO_GUARDS},
    "tiny.en + guards": {"model": "tiny.en", **GUARDS},
    "whisper-base": {"model": "whisper-base", **NO_GUARDS},
    "whisper-base + guards": {"model": "whisper-base", **GUARDS},
}


def longest_repeat(folder: Path) -> int:
    """The longest run of one word said again and again in any unit's hypothesis."""
    longest = 0
    for path in folder.glob("*.json"):
        if path.name == "baseline.json":
            continue
        words = [
            w.lower().strip(".,!?")
            for s in json.loads(path.read_text())
            for w in s["words"].split()
        ]
        run = 1
        for previous, word in zip(words, words[1:], strict=False):
            run = run + 1 if word == previous else 1
            longest = max(longest, run)
    return longest


def child_cpu_seconds(command: list[str], threads: int) -> float:
    """CPU seconds of one command, run with OMP_NUM_THREADS set as Snakemake sets it for a job
    (CTranslate2's word timings differ in the last digits with another OpenMP thread count)."""
    import os

    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", type=Path, default=Path("resources/demo/config.yaml"))
    parser.add_argument("--results", type=Path, default=Path("results"))
    args = parser.parse_args()

    from msbench.config import load_config

    config = load_config(args.config)
    msbench = str(Path(sys.executable).with_name("msbench"))
    units = args.results / "units" / "units.csv"
    benchmark = args.results / "manifests" / "benchmark.csv"
    utterances = args.results / "manifests" / "utterances.csv"
    work = Path(tempfile.mkdtemp(prefix="msbench-baseline-"))
    runtime = json.dumps({"models": config["models"]})
    print(
        "| recogniser | DER | cpWER | tcpWER | WER | soft degradation | excluded | longest repeat | CPU s per audio min |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for name, asr in VARIANTS.items():
        section = dict(config["baseline"], asr={**config["baseline"]["asr"], **asr})
        out = work / name.replace(" ", "_").replace("+", "with")
        cpu = child_cpu_seconds([
            msbench, "baseline", "--units", str(units), "--benchmark", str(benchmark),
            "--out-dir", str(out), "--config", str(args.config),
            "--settings", json.dumps({"baseline": section}), "--runtime", runtime,
        ], int(section["threads"]))  # fmt: skip
        audio = json.loads((out / "baseline.json").read_text())["audio_seconds"]
        scored = work / f"{out.name}-scored"
        subprocess.run(
            [msbench, "evaluate", "--outputs", str(out), "--system-id", "baseline", "--name", name,
             "--units", str(units), "--benchmark", str(benchmark),
             "--utterances", str(utterances), "--out-dir", str(scored), "--config", str(args.config)],
            check=True, capture_output=True,
        )  # fmt: skip
        total = json.loads((scored / "score_summary.json").read_text())

        def rate(key: str, total: dict = total) -> str:
            value = total.get(key)
            value = value.get("error_rate") if isinstance(value, dict) else value
            return "n/a" if value is None else f"{100 * value:.1f}"

        print(
            f"| {name} | {rate('der')} | {rate('cpwer')} | {rate('tcpwer')} | {rate('wer')} "
            f"| {total.get('soft_degradation')} | {total.get('excluded')} | {longest_repeat(out)} "
            f"| {cpu / (audio / 60):.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
