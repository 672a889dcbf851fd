"""Selection at scale: synthetic pools of 1,000 / 10,000 / 100,000 candidates, CBC vs HiGHS vs greedy.

Candidates are drawn from the real feature distributions: each axis value
independently from the official MS-Bench release's 99 recordings (speakers,
overlap, similarity, turn gap, d_N, duration, source), so marginals are real
and combinations are varied. The MS-Bench selection settings apply (30-35 h,
5 recordings and 0.5 h per range, 25 % per source), 60 s time limit, gap 0.1 %.
Each case runs ``--repeats`` times (3): wall time min / median / max, the solver's own
time limit, and whether the gap was proven by the LP bound or by the solver.

Greedy baseline: candidates by utility per hour, added while the duration and
source-share limits hold (coverage is not enforced; the table says whether it
happens to hold).

Run:  python benchmarks/bench_selection.py [--sizes 1000 10000 100000] [--solvers cbc highs]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from msbench.catalog import RELEASE_METADATA
from msbench.columns import FEATURE_FIELDS
from msbench.config import default_config
from msbench.construction.condition_space import build_condition_space, label_rows
from msbench.construction.selection import SelectionInfeasible, build_problem, solve_selection
from msbench.construction.utility import score_pool
from msbench.tables import read_rows

RELEASE = (
    Path(__file__).resolve().parents[2] / "shared" / "data" / "msbench-release" / "metadata.jsonl"
)


def synthetic_pool(size: int, seed: int = 0) -> list[dict]:
    release = read_rows(RELEASE_METADATA, RELEASE)
    rng = np.random.default_rng(seed)
    pool = []
    for index in range(size):
        row = {field: release[rng.integers(len(release))][field] for field in FEATURE_FIELDS}
        donor = release[rng.integers(len(release))]
        row.update(
            recording_id=f"synthetic::{index:06d}",
            source_dataset=donor["source_dataset"],
            language=donor["language"],
            scenario=donor["scenario"],
            duration_seconds=float(donor["duration_seconds"]) * float(rng.uniform(0.5, 1.5)),
        )
        pool.append(row)
    return pool


def greedy(pool, utilities, constraints, hours) -> tuple[float, bool]:
    order = sorted(range(len(pool)), key=lambda i: -utilities[i] / hours[i])
    chosen: set[int] = set()
    total = 0.0
    source_hours: Counter[str] = Counter()
    share = default_config()["selection"]["max_source_share"]
    max_hours = default_config()["selection"]["max_hours"]
    for i in order:
        source = pool[i]["source_dataset"]
        if total + hours[i] > max_hours:
            continue
        if source_hours[source] + hours[i] > share * max_hours:
            continue
        chosen.add(i)
        total += hours[i]
        source_hours[source] += hours[i]
    feasible = all(
        (sum(v for k, v in c.terms.items() if k in chosen) + c.total * total >= c.rhs - 1e-9)
        if c.sense == ">="
        else (sum(v for k, v in c.terms.items() if k in chosen) + c.total * total <= c.rhs + 1e-9)
        for c in constraints
    )
    return sum(utilities[i] for i in chosen), feasible


def print_case(size, solver, limit, runs, baseline, baseline_ok) -> None:
    """One table row: the solver's own time limit, times over the runs, the last run's facts."""
    times = sorted(t for t, _ in runs)
    r = runs[-1][1]
    statuses = sorted({report["solution_status"] for _, report in runs})
    print(
        f"| {size:,} | {solver} | {limit:.0f} | {', '.join(statuses)} ({r['incumbent_from']}) | "
        f"{times[0]:.1f} / {times[len(times) // 2]:.1f} / {times[-1]:.1f} | {r['gap_vs_lp_bound']:.4%} | "
        f"{r['gap_proven_by']} | {'yes' if all(rep['gap_proven_within_target'] for _, rep in runs) else 'no'} | "
        f"{r['objective']:.2f} | {baseline:.2f} ({'yes' if baseline_ok else 'no'}) | "
        f"{r['objective'] / baseline:.3f} |",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--solvers", nargs="+", default=["cbc", "highs"])
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--repeats", type=int, default=3, help="runs per case (min/median/max)")
    args = parser.parse_args()
    config = default_config()
    space = build_condition_space(config["condition_space"])
    print(
        "| candidates | solver | time limit (s) | status | time (s) min / median / max | gap vs LP bound | "
        "gap proven by | proven <= 0.1 % | utility | greedy utility (coverage held) | IP / greedy |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        pool = label_rows(synthetic_pool(size), space)
        scores = score_pool(
            pool, space, config["utility"]["weights"], config["utility"]["challenging"]
        )
        utilities = [s["U"] for s in scores]
        settings = {**config["selection"], "time_limit_seconds": args.time_limit}
        problem = build_problem(pool, utilities, space, settings)
        baseline, baseline_ok = greedy(
            pool, utilities, list(problem.constraints), list(problem.hours)
        )
        for solver in args.solvers:
            runs = []
            for _ in range(args.repeats):
                started = time.perf_counter()
                try:
                    result = solve_selection(problem, {**settings, "solver": solver})
                except SelectionInfeasible as error:
                    print(f"| {size:,} | {solver} | infeasible: {error} |")
                    break
                runs.append((time.perf_counter() - started, result.report))
            if runs:
                print_case(size, solver, args.time_limit, runs, baseline, baseline_ok)
    return 0


if __name__ == "__main__":
    sys.exit(main())
