"""Scoring one long unit: msbench's full scoring against meeteval's cpWER + tcpWER, time and memory.

Sessions of 30 to 240 minutes with 2 to 30 speakers are built from real AMI
turn-taking with generated English or Chinese tokens
(``long_transcripts.py``: the hypothesis has 12 % of its tokens substituted,
5 % deleted, times jittered by 0.3 s and speakers relabelled). For each, in
the same run and each in a fresh process under ``/usr/bin/time -v`` on one
thread:

* ``msbench score --ref ref.stm --hyp hyp.stm --word-view DIR``: DER at both collars,
  cpWER, tcpWER, WER, tcORC-WER where it fits, the E_lex / E_seg / E_attr diagnosis (its
  word alignments) and the word view (every word's class, written to ``DIR``), on one thread
  (``--threads 1``) and on two (``--threads 2``, the default on a two-core machine);
* the reference: ``meeteval-wer cpwer`` plus ``meeteval-wer tcpwer --collar 5``
  on the same files (times and peaks summed / maxed).

Printed per session: tokens, wall seconds and peak RSS (MB) of both, the
time ratios (msbench on one thread / meeteval, and on two / meeteval), and whether the cpWER
and tcpWER error counts agree (meeteval refuses more than 20 speakers: "refused"; msbench's
time is then compared with nothing).

    python benchmarks/bench_scoring.py                          # the README table
    python benchmarks/bench_scoring.py --minutes 160 --speakers 14
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_transcripts import write_session  # noqa: E402

BIN = Path(sys.executable).parent
#: (minutes, speakers, language) of the README table
DEFAULT_SESSIONS = (
    (30, 14, "en"), (60, 14, "en"), (120, 14, "en"), (160, 4, "en"), (160, 14, "en"),
    (160, 34, "en"), (240, 4, "en"), (240, 14, "en"), (160, 14, "zh"),
)  # fmt: skip


def timed(command: list[str], cwd: Path) -> tuple[float, float, str]:
    """(wall seconds, peak RSS MB, stdout) of a command under /usr/bin/time -v, one thread."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    began = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-v", *command], capture_output=True, text=True, cwd=cwd, env=env
    )
    wall = time.perf_counter() - began
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    if done.returncode != 0:
        return wall, float(peak.group(1)) / 1024 if peak else 0.0, "FAILED " + done.stderr[-300:]
    return wall, float(peak.group(1)) / 1024 if peak else 0.0, done.stdout


def meeteval_errors(folder: Path, metric: str) -> int | None:
    path = folder / f"hyp_{metric}.json"
    if not path.exists():
        return None
    return int(json.loads(path.read_text())["errors"])


def run(minutes: float, speakers: int, language: str, folder: Path) -> dict[str, object]:
    ref, hyp, tokens = write_session(folder, minutes, speakers, language)
    ours = {}
    for threads in (1, 2):
        command = [str(BIN / "msbench"), "score", "--ref", "ref.stm", "--hyp", "hyp.stm",
                   "--word-view", f"view{threads}", "--threads", str(threads)]  # fmt: skip
        ours[threads] = timed(command, folder)
    out = ours[1][2]
    scores = json.loads(out) if not out.startswith("FAILED") else {}
    cp = timed([str(BIN / "meeteval-wer"), "cpwer", "-r", "ref.stm", "-h", "hyp.stm"], folder)
    tcp = timed(
        [str(BIN / "meeteval-wer"), "tcpwer", "-r", "ref.stm", "-h", "hyp.stm", "--collar", "5"],
        folder,
    )
    refused = cp[2].startswith("FAILED") or tcp[2].startswith("FAILED")
    theirs = {m: meeteval_errors(folder, m) for m in ("cpwer", "tcpwer")}
    agree = (
        "refused"
        if refused
        else all(scores.get(m, {}).get("errors") == theirs[m] for m in ("cpwer", "tcpwer"))
    )
    reference_s = None if refused else cp[0] + tcp[0]
    return {
        "minutes": minutes, "speakers": speakers, "language": language, "tokens": tokens,
        "msbench_s": ours[1][0], "msbench_mb": ours[1][1], "msbench2_s": ours[2][0],
        "msbench2_mb": ours[2][1],
        "meeteval_s": reference_s, "meeteval_mb": None if refused else max(cp[1], tcp[1]),
        "ratio": None if refused else ours[1][0] / reference_s,
        "ratio2": None if refused else ours[2][0] / reference_s,
        "counts_agree": agree, "cpwer": scores.get("cpwer", {}).get("error_rate"),
    }  # fmt: skip


def _cell(value: object, form: str) -> str:
    return "-" if value is None else format(value, form)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float)
    parser.add_argument("--speakers", type=int)
    parser.add_argument("--language", default="en", choices=("en", "zh"))
    args = parser.parse_args()
    sessions = (
        [(args.minutes, args.speakers, args.language)]
        if args.minutes and args.speakers
        else DEFAULT_SESSIONS
    )
    print("| minutes | speakers | language | tokens | msbench s (1 thread) | msbench MB | "
          "msbench s (2 threads) | meeteval cpwer+tcpwer s | meeteval MB | ratio 1 thread | "
          "ratio 2 threads | counts agree |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for minutes, speakers, language in sessions:
        with tempfile.TemporaryDirectory() as tmp:
            row = run(minutes, speakers, language, Path(tmp))
        print(
            f"| {row['minutes']:g} | {row['speakers']} | {row['language']} | {row['tokens']:,} | "
            f"{row['msbench_s']:.1f} | {row['msbench_mb']:.0f} | {row['msbench2_s']:.1f} | "
            f"{_cell(row['meeteval_s'], '.1f')} | {_cell(row['meeteval_mb'], '.0f')} | "
            f"{_cell(row['ratio'], '.2f')} | {_cell(row['ratio2'], '.2f')} | "
            f"{row['counts_agree']} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
