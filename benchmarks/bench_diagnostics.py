"""How long the five condition analyses of one system take on a 33-hour benchmark, 1,000 resamples.

A synthetic benchmark the size of MS-Bench (99 recordings, 33 h, 2 to 14
speakers, one reference utterance per 4 s: about 30,000 utterances) with
random error counts, overlap exposures, switch distances, speaker pairs and
similarities. Printed: seconds for ``diagnose_system`` (all five analyses and
the decomposition, 1,000 recording-level resamples each), and the reference:
the same overlap statistic recomputed per resample from the utterance rows
(the direct way), timed on 20 resamples and scaled to 1,000; the ratio.

    taskset -c 0 python benchmarks/bench_diagnostics.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from msbench.diagnostics.analysis_inputs import Recording, SystemTables  # noqa: E402
from msbench.diagnostics.system import diagnose_system  # noqa: E402

RECORDINGS, HOURS, SECONDS_PER_UTTERANCE = 99, 33.0, 4.0
SETTINGS = {
    "overlap_threshold": 0.5,
    "switch_neighbourhoods": [0.5, 0.25, 1.0],
    "speaker_number_excluded_ranges": ["P3"],
    "bootstrap": {"resamples": 1000, "seed": 0, "confidence": 0.95},
}


def synthetic_benchmark(seed: int = 0) -> SystemTables:
    rng = np.random.default_rng(seed)
    seconds = rng.dirichlet(np.ones(RECORDINGS)) * HOURS * 3600
    recordings, units, utterances, pairs, similarity = [], [], [], [], {}
    for k in range(RECORDINGS):
        rid, speakers = f"src{k % 7}::rec{k:03d}", int(rng.integers(2, 15))
        recordings.append(
            Recording(
                rid,
                f"src{k % 7}",
                f"P{min(3, speakers // 4)}",
                speakers,
                rng.random() * 0.4,
                rng.random(),
            )
        )
        ids = [f"{rid}::s{j}" for j in range(speakers)]
        units.append({"recording_id": rid, "unit_id": rid, "ref_speakers": speakers,
                      "t_ref": seconds[k] * 0.8, "t_hyp": seconds[k] * rng.uniform(0.6, 1.0),
                      "ov_boundaries": 100, "ov_boundaries_localised": 80, "ov_seconds": 60.0,
                      "ov_covered": 50.0, "ov_speaker_seconds": 120.0, "ov_speaker_covered": 90.0})  # fmt: skip
        for _ in range(int(seconds[k] / SECONDS_PER_UTTERANCE)):
            n_ref = int(rng.integers(1, 25))
            utterances.append({"recording_id": rid, "unit_id": rid, "speaker": ids[int(rng.integers(speakers))],
                               "overlap_exposure": float(rng.choice([0.0, 0.0, 0.3, 0.7])),
                               "switch_distance": float(rng.exponential(2.0)), "n_ref": n_ref,
                               "s": int(rng.binomial(n_ref, 0.1)), "i_lex": int(rng.binomial(n_ref, 0.03)),
                               "i_seg": int(rng.binomial(n_ref, 0.02)), "d_lex": int(rng.binomial(n_ref, 0.04)),
                               "d_seg": int(rng.binomial(n_ref, 0.02)), "attributable": True,
                               "misattributed": bool(rng.random() < 0.15)})  # fmt: skip
        for i in ids:
            for j in ids:
                pairs.append({"recording_id": rid, "ref_speaker": i, "attributed_to": j,
                              "tokens_clean": int(rng.integers(0, 500 if i == j else 20))})  # fmt: skip
        similarity[rid] = {(i, j): float(rng.random()) for i in ids for j in ids if i != j}
    return SystemTables("synthetic", "synthetic", recordings, units, utterances, pairs, similarity)


def direct_overlap_delta(tables: SystemTables, draws: np.ndarray) -> float:
    """Delta E_lex (pp) of one resample, recomputed from the rows (the reference way)."""
    by_recording: dict[str, list[dict]] = {}
    for row in tables.utterances:
        by_recording.setdefault(row["recording_id"], []).append(row)
    sums = {"hi": [0, 0], "zero": [0, 0]}
    for k in draws:
        for row in by_recording.get(tables.recordings[k].recording_id, []):
            group = (
                "hi"
                if row["overlap_exposure"] >= 0.5
                else "zero"
                if row["overlap_exposure"] == 0
                else None
            )
            if group:
                sums[group][0] += row["s"] + row["i_lex"] + row["d_lex"]
                sums[group][1] += row["n_ref"]
    return 100 * (sums["hi"][0] / sums["hi"][1] - sums["zero"][0] / sums["zero"][1])


def main() -> None:
    tables = synthetic_benchmark()
    print(f"benchmark: {RECORDINGS} recordings, {HOURS:g} h, {len(tables.utterances)} utterances, "
          f"{len(tables.pairs)} speaker pairs")  # fmt: skip
    start = time.process_time()
    result = diagnose_system(tables, SETTINGS, {})
    ours = time.process_time() - start
    rng = np.random.default_rng(1)
    start = time.process_time()
    for _ in range(20):
        direct_overlap_delta(tables, rng.integers(0, RECORDINGS, RECORDINGS))
    direct = (time.process_time() - start) / 20 * 1000
    overlap = result["analyses"]["overlap"]["series"][0]
    print(f"diagnose_system, 5 analyses + decomposition, 1,000 resamples: {ours:.1f} CPU-s")
    print(
        f"reference: one statistic recomputed from the rows per resample, x1,000: {direct:.1f} CPU-s"
    )
    print(f"ratio (reference / ours, ours doing 21 statistics): {direct / ours:.1f}x")
    print(f"overlap Delta E_lex = {overlap['value']:.2f} pp, interval {overlap['interval']}")


if __name__ == "__main__":
    main()
