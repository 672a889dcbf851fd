"""Record what command 1 printed, so the README and getting started show a measured run, not
numbers copied by hand:

    scripts/run_demo.sh 2>&1 | tee /tmp/demo.txt
    python scripts/record_demo_run.py /tmp/demo.txt      # writes docs/measured/demo-run.md
    python scripts/gen_docs.py                           # the README's and getting started's block

The record states the date, the machine (cores, memory, processor), the commit and the
timings the script printed; its excerpt (the leaderboard, the comparison's cpWER line, the
probes) is what the two pages show between their ``demo-run`` markers.
"""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RECORD = REPO / "docs" / "measured" / "demo-run.md"
KEPT = (
    r"^\[demo\] (leaderboard|which system|probes|review site|set-up|commit)",
    r"^\| (system_id|simulated|baseline|metric) ",
    r"^## .* against ",
    r"^\| cpwer \|",
    r"^\{'items'",
)


#: The record's second block: the comparison the demo printed, whole (the worked example of
#: docs/concepts/comparison.md).
COMPARISON_HEADING = "## The comparison it printed"


def _comparison(printed: list[str]) -> list[str]:
    """The lines after ``[demo] which system is better`` up to the next ``[demo]`` line."""
    start = next(
        (k for k, line in enumerate(printed) if line.startswith("[demo] which system")), None
    )
    if start is None:
        return ["(no comparison: the demo scored one system)"]
    block = []
    for line in printed[start + 1 :]:
        if line.startswith("[demo]"):
            break
        block.append(line)
    return block


def machine() -> str:
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.processor() or "unknown processor")  # fmt: skip
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{os.cpu_count()} cores, {memory:.0f} GiB, {cpu}, Python {platform.python_version()}"


def main() -> int:
    printed = Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()
    excerpt: list[str] = []
    for line in printed:
        header_rule = (
            line.startswith("|---")
            and bool(excerpt)
            and excerpt[-1].startswith(("| system_id", "| metric"))
        )
        if header_rule or (not line.startswith("|---") and any(re.match(p, line) for p in KEPT)):
            excerpt.append(line)
    if not any(line.startswith("| baseline") for line in excerpt):
        print(
            f"{sys.argv[1]} holds no demo leaderboard: run scripts/run_demo.sh first",
            file=sys.stderr,
        )
        return 1
    said = [line.split()[-1] for line in printed if line.startswith("[demo] commit ")]
    commit = said[-1] if said else subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=False
    ).stdout.strip()  # fmt: skip
    excerpt = [line for line in excerpt if not line.startswith("[demo] commit ")]
    comparison = _comparison(printed)
    when = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
    RECORD.parent.mkdir(parents=True, exist_ok=True)
    RECORD.write_text(
        f"# The last measured demo run\n\nRecorded by `scripts/record_demo_run.py` on {when} from "
        f"`scripts/run_demo.sh`'s output at commit {commit}, on {machine()}.\n\n```\n"
        + "\n".join(excerpt) + "\n```\n\n" + COMPARISON_HEADING + "\n\n```\n"
        + "\n".join(comparison) + "\n```\n", encoding="utf-8",
    )  # fmt: skip
    print(f"wrote {RECORD.relative_to(REPO)}; now run: python scripts/gen_docs.py")
    return 0


if __name__ == "__main__":
    sys.exit(main())
