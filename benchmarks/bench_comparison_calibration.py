"""How well msbench's comparison keeps its promises: a simulation study on synthetic benchmarks
with known differences (issue: verdicts a reviewer accepts).

Each replicate is a benchmark of ``n`` recordings (6, 20, 60, 99), each cut into 1 to 4 units
(the clusters hold units, as MS-Bench's do): a recording has a length (reference tokens,
log-normal around 1,500) and a difficulty (``logit p = c_r``, ``c_r ~ N(logit 0.35, 0.7^2)``,
the spread of MS-Bench's conditions); system X errs on it with ``logit p_X = c_r + e_X + D_X``
(``e_X ~ N(0, 0.15^2)``: systems a little better on some recordings than on others), and each unit's errors are
beta-binomial around that rate (concentration 60: units differ inside a recording). ``D`` sets
the true difference, computed exactly as the population ratio of sums (a large Monte Carlo of
the same model). Under the null (D = 0) the systems are exchangeable within each recording.

For each method of :mod:`msbench.diagnostics.intervals` and each size it prints, with Wilson 95 %
intervals: the coverage of the true B - A (D giving about -2 points), the rate at which the
interval excludes 0 under the null, the false-positive rate of the permutation test and the
sign test, and their power for 1, 2 and 5 points; then the multiplicity study: four systems and
seven correlated metrics, Holm over every pair and metric (msbench before 0.3) against the
step-down max-T over the pairs on the primary metric (Westfall and Young, msbench 0.3), their
family-wise error under the complete null and their power for a 2-point gain; and the
recordings a difference needs (80 % power). A statistic over a benchmark is what msbench
computes: :func:`msbench.comparison.paired.permutation_test` and the intervals module.

    python benchmarks/bench_comparison_calibration.py            # 1,000 replicates a cell
    python benchmarks/bench_comparison_calibration.py --replicates 200 --sizes 6 20
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from msbench.comparison.multiplicity import holm, westfall_young
from msbench.comparison.paired import PairedSums, permutation_test, sign_test
from msbench.diagnostics.bootstrap import Bootstrap
from msbench.diagnostics.intervals import METHOD, METHODS, interval

LOGIT_MEAN, RECORDING_SD, SYSTEM_SD, CONCENTRATION = math.log(0.35 / 0.65), 0.7, 0.15, 60.0


def logistic(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


def true_rate(shift: float, draws: int = 2_000_000, seed: int = 99) -> float:
    """The population ratio of sums of a system with logit shift ``shift`` (percent): lengths
    are independent of difficulty, so it is E[p] over recordings and systems."""
    rng = np.random.default_rng(seed)
    c = rng.normal(LOGIT_MEAN, RECORDING_SD, draws) + rng.normal(0, SYSTEM_SD, draws)
    return 100 * float(logistic(c + shift).mean())


@dataclass
class Benchmark:
    """Per-recording sums (numerator, denominator) of each system (rows) and metric."""

    num: np.ndarray  # systems x metrics x recordings
    den: np.ndarray  # recordings (reference tokens, shared by every system and metric)

    def sums(self, a: int, b: int, metric: int = 0) -> PairedSums:
        return PairedSums(self.num[a, metric], self.den, self.num[b, metric], self.den)


def make_benchmark(
    rng: np.random.Generator, n: int, shifts: Sequence[float], metrics: int = 1, rho: float = 0.7
) -> Benchmark:
    """``n`` recordings, a system per logit shift; ``metrics`` correlated error rates each
    (a shared system-by-recording effect, correlation ``rho``, and a metric-specific part)."""
    units = rng.integers(1, 5, n)
    lengths = [np.maximum(20, rng.lognormal(math.log(1500 / k), 0.8, k)).astype(int) for k in units]
    c = rng.normal(LOGIT_MEAN, RECORDING_SD, n)
    num = np.zeros((len(shifts), metrics, n))
    for s, shift in enumerate(shifts):
        shared = rng.normal(0, SYSTEM_SD, n)
        for m in range(metrics):
            own = rng.normal(0, SYSTEM_SD, n)
            e = math.sqrt(rho) * shared + math.sqrt(1 - rho) * own if m else shared
            p = logistic(c + e + shift)
            for r in range(n):
                q = rng.beta(p[r] * CONCENTRATION, (1 - p[r]) * CONCENTRATION, len(lengths[r]))
                num[s, m, r] = rng.binomial(lengths[r], q).sum()
    den = np.array([lengths[r].sum() for r in range(n)], dtype=float)
    return Benchmark(num, den)


def difference(sums: PairedSums) -> Callable[[np.ndarray], np.ndarray]:
    def statistic(weights: np.ndarray) -> np.ndarray:
        with np.errstate(invalid="ignore", divide="ignore"):
            b = (weights @ sums.num_b) / (weights @ sums.den_b)
            a = (weights @ sums.num_a) / (weights @ sums.den_a)
        return np.asarray(100 * (b - a), dtype=float)

    return statistic


def wilson(k: int, n: int) -> str:
    """``93.4 % [91.7, 94.8]``: a proportion with its Wilson 95 % interval."""
    if not n:
        return "-"
    z, p = 1.959964, k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:5.1f} % [{100 * (centre - half):.1f}, {100 * (centre + half):.1f}]"


def shift_for(points: float) -> float:
    """The logit shift whose true difference against 0 is ``points`` percentage points."""
    low, high, base = -3.0, 3.0, true_rate(0.0)
    for _ in range(40):
        middle = (low + high) / 2
        if true_rate(middle) - base < points:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def coverage_rows(sizes: Sequence[int], replicates: int, seed: int, resamples: int) -> None:
    shift = shift_for(-2.0)
    truth = true_rate(shift) - true_rate(0.0)
    print(f"\n## Coverage of B - A (true difference {truth:.3f} points) and the null\n")
    print("| recordings | method | coverage | excludes 0 under the null |")
    print("|---|---|---|---|")
    for n in sizes:
        covered = dict.fromkeys(METHODS, 0)
        null_excludes = dict.fromkeys(METHODS, 0)
        weights = Bootstrap(resamples, seed).weights(n).astype(float)
        rng = np.random.default_rng([seed, n])
        for _ in range(replicates):
            for shifts, tally, target in (
                ((0.0, shift), covered, truth),
                ((0.0, 0.0), null_excludes, 0.0),
            ):
                sums = make_benchmark(rng, n, shifts).sums(0, 1)
                statistic = difference(sums)
                draws = statistic(weights)
                for method in METHODS:
                    found = interval(method, statistic, n, 0.95, draws, weights)
                    if found.low is None or found.high is None:
                        continue
                    inside = found.low <= target <= found.high
                    tally[method] += inside if tally is covered else (not inside)
        for method in METHODS:
            chosen = " (msbench)" if method == METHOD else ""
            print(f"| {n} | {method}{chosen} | {wilson(covered[method], replicates)} | "
                  f"{wilson(null_excludes[method], replicates)} |")  # fmt: skip


def test_rows(sizes: Sequence[int], replicates: int, seed: int, permutations: int) -> None:
    print("\n## The paired tests: false positives (alpha 0.05) and power\n")
    effects = (0.0, -1.0, -2.0, -5.0)
    shifts = {e: shift_for(e) if e else 0.0 for e in effects}
    print("| recordings | difference (points) | permutation test rejects | sign test rejects |")
    print("|---|---|---|---|")
    for n in sizes:
        rng = np.random.default_rng([seed, n, 1])
        for effect in effects:
            hits = {"permutation": 0, "sign": 0}
            for k in range(replicates):
                sums = make_benchmark(rng, n, (0.0, shifts[effect])).sums(0, 1)
                p = permutation_test(sums, permutations, seed + k)
                hits["permutation"] += p is not None and p < 0.05
                s = sign_test(sums)
                hits["sign"] += s is not None and s < 0.05
            print(f"| {n} | {effect:g} | {wilson(hits['permutation'], replicates)} | "
                  f"{wilson(hits['sign'], replicates)} |")  # fmt: skip


def multiplicity_rows(sizes: Sequence[int], replicates: int, seed: int, permutations: int) -> None:
    """Four systems, seven correlated metrics: Holm over every pair and metric against the
    step-down max-T over the pairs of the primary metric."""
    print("\n## Four systems, seven metrics: family-wise error and power\n")
    print("| recordings | setting | any pair significant, Holm over pairs x metrics | "
          "max-T over pairs (primary metric) | raw p < 0.05 (one pair) |")  # fmt: skip
    print("|---|---|---|---|---|")
    gain = shift_for(-2.0)
    pairs = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    for n in sizes:
        rng = np.random.default_rng([seed, n, 2])
        for setting, shifts in (
            ("all equal", (0, 0, 0, 0)),
            ("D 2 points better", (0, 0, 0, gain)),
        ):
            holm_hits = maxt_hits = raw_hits = 0
            for k in range(replicates):
                bench = make_benchmark(rng, n, shifts, metrics=7)
                ps = [permutation_test(bench.sums(a, b, m), permutations, seed + k)
                      for a, b in pairs for m in range(7)]  # fmt: skip
                adjusted = holm(ps)
                target = [i for i, (a, b) in enumerate(pairs) if (a, b) == (0, 3)][0] * 7
                wanted = (
                    adjusted[target]
                    if setting != "all equal"
                    else min(a for a in adjusted if a is not None)
                )
                holm_hits += wanted is not None and wanted < 0.05
                den = np.broadcast_to(bench.den, (4, n))
                wy = westfall_young(bench.num[:, 0], den, pairs, permutations, seed + k)
                chosen = (
                    wy[target // 7]
                    if setting != "all equal"
                    else min(p for p in wy if p is not None)
                )
                maxt_hits += chosen is not None and chosen < 0.05
                raw = ps[target] if setting != "all equal" else ps[0]
                raw_hits += raw is not None and raw < 0.05
            print(f"| {n} | {setting} | {wilson(holm_hits, replicates)} | "
                  f"{wilson(maxt_hits, replicates)} | {wilson(raw_hits, replicates)} |")  # fmt: skip


def needed_rows(replicates: int, seed: int, permutations: int) -> None:
    print("\n## Recordings a cpWER difference needs (two systems, permutation test, alpha 0.05)\n")
    print("| difference (points) | recordings | power |")
    print("|---|---|---|")
    for effect in (-1.0, -2.0, -5.0):
        shift = shift_for(effect)
        for n in (6, 10, 15, 20, 30, 40, 60, 80, 99, 150, 200):
            rng = np.random.default_rng([seed, n, 3])
            hits = sum(
                (p := permutation_test(make_benchmark(rng, n, (0.0, shift)).sums(0, 1),
                                       permutations, seed + k)) is not None and p < 0.05
                for k in range(replicates)
            )  # fmt: skip
            print(f"| {abs(effect):g} | {n} | {wilson(hits, replicates)} |")
            if hits / replicates >= 0.8:
                break


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--sizes", type=int, nargs="+", default=[6, 20, 60, 99])
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--permutations", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=("coverage", "tests", "multiplicity", "needed"))
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print(f"# Comparison calibration: {args.replicates} replicates a cell, seed {args.seed}, "
          f"{args.resamples} bootstrap resamples, {args.permutations} permutations")  # fmt: skip
    if args.only in (None, "coverage"):
        coverage_rows(args.sizes, args.replicates, args.seed, args.resamples)
    if args.only in (None, "tests"):
        test_rows(args.sizes, args.replicates, args.seed, args.permutations)
    if args.only in (None, "multiplicity"):
        multiplicity_rows(
            args.sizes[:2], max(args.replicates // 2, 1), args.seed, args.permutations
        )
    if args.only in (None, "needed"):
        needed_rows(max(args.replicates // 2, 1), args.seed, args.permutations)
    print(f"\n({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
