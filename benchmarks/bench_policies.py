"""Acoustic feature policies on long, quality-drifting recordings: agreement with exhaustive scoring and cost.

Recordings: :mod:`long_recordings` (seeded; real LibriSpeech and AMI speech
with drifting noise, reverberation, bursts). For each policy: Spearman of the
pool's d_N ranks and the number of recordings changing N range, both against
exhaustive scoring (every 1 s-hop DNSMOS window, every NISQA chunk); mean and
max |OVRL| and |NISQA MOS| differences; CPU-s per audio hour and per recording
of each model. In the same process: per-window exhaustive DNSMOS (the
reference method's cost) on the first recording's first 3 minutes, CAM++ at
batch 1 vs 8 on 20 crops of 6 s, and the core's float32 matmul rate, which
with the model's FLOP count gives the cost limit.

  taskset -c 0 python benchmarks/bench_policies.py            # one core
  python benchmarks/bench_policies.py --workers 2             # a process per core
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from scipy.stats import spearmanr  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from long_recordings import generate  # noqa: E402

from msbench.config import default_config  # noqa: E402
from msbench.construction.condition_space import build_condition_space  # noqa: E402
from msbench.features.quality_rank import add_noise_difficulty  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
MODELS = {"search_dirs": [str(REPO.parent / "shared" / "models")], "offline": True}
POLICIES = {  # name: (DNSMOS settings, NISQA max_chunks)
    "exhaustive": ({"policy": "exhaustive", "hop_seconds": 1.0}, None),
    "non-overlapping": ({"policy": "non-overlapping", "hop_seconds": 1.0}, None),
    "budget (24 windows, 18 chunks)": (
        {"policy": "budget", "hop_seconds": 1.0, "max_windows": 24},
        18,
    ),
}


def cpu(function, *args):
    started = time.process_time()
    value = function(*args)
    return value, time.process_time() - started


def score_recording(job: tuple[int, int, float, float]) -> list[dict]:
    index, seed, low, high = job
    from msbench.models.dnsmos import DnsmosScorer
    from msbench.models.nisqa import NisqaScorer

    description, audio = generate(index + 1, seed, low, high)[index]
    rows = []
    nisqa_cache: dict[object, tuple] = {}
    for name, (dnsmos_settings, chunks) in POLICIES.items():
        dnsmos, t_d = cpu(DnsmosScorer(dnsmos_settings).score, audio)
        if chunks not in nisqa_cache:
            scorer = NisqaScorer({"chunk_seconds": 10.0, "max_chunks": chunks}, MODELS)
            nisqa_cache[chunks] = cpu(scorer.score, audio)
        nisqa, t_n = nisqa_cache[chunks]
        rows.append({"policy": name, "recording": description.name, "hours": len(audio) / 16000 / 3600,
                     "dnsmos_ovrl": dnsmos.ovrl, "nisqa_mos": nisqa.mos, "windows": dnsmos.windows,
                     "dnsmos_cpu": t_d, "nisqa_cpu": t_n})  # fmt: skip
    return rows


def per_window_reference(seed: int, low: float, high: float) -> tuple[float, float, int]:
    """CPU-s per audio hour of per-window scoring and of the shared computation, same audio."""
    from msbench.models.dnsmos import WINDOW, DnsmosScorer, window_starts

    audio = generate(1, seed, low, high)[0][1][: 180 * 16000]
    each = DnsmosScorer({"policy": "budget", "hop_seconds": 1.0, "max_windows": None})
    shared = DnsmosScorer({"policy": "exhaustive", "hop_seconds": 1.0})
    starts = window_starts(audio.size, 16000, None)
    _, t_each = cpu(
        lambda: [each.primary.run(None, {"input_1": audio[s : s + WINDOW][None]}) for s in starts]
    )
    _, t_shared = cpu(shared.shared.raw_scores, audio, 100, len(starts))
    hours = audio.size / 16000 / 3600
    return t_each / hours, t_shared / hours, len(starts)


def matmul_rate() -> float:
    a = np.random.default_rng(0).standard_normal((2048, 2048)).astype(np.float32)
    a @ a
    _, seconds = cpu(lambda: [a @ a for _ in range(5)])
    return 5 * 2 * 2048**3 / seconds / 1e9


def dnsmos_flops() -> tuple[float, float, float]:
    """(per window, full-resolution part per frame, tail per window) of sig_bak_ovr.onnx, FLOP."""
    import importlib.resources

    import onnx
    from onnx import numpy_helper

    path = importlib.resources.files("speechmos") / "dnsmos_models" / "sig_bak_ovr.onnx"
    weights = {
        i.name: numpy_helper.to_array(i).shape for i in onnx.load(str(path)).graph.initializer
    }
    sizes = {"conv2d": (900, 161), "conv2d_1": (900, 161), "conv2d_2": (900, 161), "conv2d_3": (900, 161),
             "conv2d_4": (450, 80), "conv2d_5": (225, 40), "conv2d_6": (112, 20)}  # fmt: skip
    conv = {n: 2 * np.prod(weights[f"{n}/kernel:0"]) * t * f for n, (t, f) in sizes.items()}
    stft = 2 * 2 * 320 * 161 * 900
    full = stft + sum(conv[f"conv2d{s}"] for s in ("", "_1", "_2", "_3"))
    tail = sum(conv[f"conv2d_{k}"] for k in (4, 5, 6))
    return float(full + tail), float(full / 900), float(tail)


def campplus_batches() -> tuple[float, float, float]:
    from msbench.models.campplus import CamPlusEmbedder

    audio = generate(1, 0, 5, 6)[0][1]
    crops = [audio[k * 96000 : k * 96000 + 96000] for k in range(20)]
    embedder = CamPlusEmbedder(MODELS)
    embedder.max_batch = 1
    one, t_one = cpu(embedder.embed, crops)
    embedder.max_batch = 8
    eight, t_eight = cpu(embedder.embed, crops)
    return t_one, t_eight, float(np.abs(one - eight).max())


def agreement(rows: list[dict]) -> None:
    axis = build_condition_space(default_config()["condition_space"]).axis("N")
    ranked = {
        name: add_noise_difficulty([r for r in rows if r["policy"] == name]) for name in POLICIES
    }
    reference = ranked["exhaustive"]
    print(
        "| policy | Spearman d_N | N-range changes | mean / max abs OVRL diff | mean / max abs NISQA diff | DNSMOS CPU-s per audio hour | NISQA CPU-s per audio hour | DNSMOS + NISQA CPU-s per recording (mean) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, mine in ranked.items():
        rho = rank_agreement(reference, mine)
        changes = sum(
            axis.label(a["noise_difficulty"]) != axis.label(b["noise_difficulty"])
            for a, b in zip(reference, mine, strict=True)
        )
        d_o = [
            abs(a["dnsmos_ovrl"] - b["dnsmos_ovrl"]) for a, b in zip(reference, mine, strict=True)
        ]
        d_n = [abs(a["nisqa_mos"] - b["nisqa_mos"]) for a, b in zip(reference, mine, strict=True)]
        hours = sum(r["hours"] for r in mine)
        t_d, t_n = sum(r["dnsmos_cpu"] for r in mine), sum(r["nisqa_cpu"] for r in mine)
        print(f"| {name} | {rho} | {changes} of {len(mine)} | {np.mean(d_o):.4f} / {max(d_o):.4f} | {np.mean(d_n):.4f} / {max(d_n):.4f} "
              f"| {t_d / hours:.0f} | {t_n / hours:.0f} | {(t_d + t_n) / len(mine):.1f} |")  # fmt: skip


def rank_agreement(reference: list[dict], mine: list[dict]) -> str:
    """Spearman of d_N against the reference, or why there is none (it needs 3 or more recordings).

    >>> rank_agreement([{"noise_difficulty": 0.1}] * 2, [{"noise_difficulty": 0.2}] * 2)
    'needs 3 or more recordings (2 given)'
    """
    if len(mine) < 3:
        return f"needs 3 or more recordings ({len(mine)} given)"
    rho = spearmanr(
        [r["noise_difficulty"] for r in reference], [r["noise_difficulty"] for r in mine]
    )[0]
    return "undefined (a constant d_N)" if np.isnan(rho) else f"{rho:.4f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-minutes", type=float, default=5.0)
    parser.add_argument("--max-minutes", type=float, default=12.0)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    jobs = [(i, args.seed, args.min_minutes, args.max_minutes) for i in range(args.count)]
    with ProcessPoolExecutor(args.workers) as pool:
        rows = [row for result in pool.map(score_recording, jobs) for row in result]
    hours = sum(r["hours"] for r in rows if r["policy"] == "exhaustive")
    print(
        f"{args.count} recordings, {hours * 60:.1f} min, seed {args.seed}, {args.min_minutes}-{args.max_minutes} min each"
    )
    agreement(rows)
    each, shared, windows = per_window_reference(args.seed, args.min_minutes, args.max_minutes)
    rate = matmul_rate()
    window, frame, tail = dnsmos_flops()
    print(
        f"\nDNSMOS P.835 on {windows} windows (3 min): per-window {each:.0f} CPU-s per audio hour, "
        f"shared computation {shared:.0f} ({each / shared:.2f}x less)"
    )
    print(
        f"limit at this core's float32 matmul rate ({rate:.0f} GFLOP/s): {window / 1e9:.1f} GFLOP per window -> "
        f"per-window {3600 * window / rate / 1e9:.0f} CPU-s per audio hour; shared "
        f"{(360000 * frame + 3600 * (tail + 16 * frame)) / rate / 1e9:.0f} CPU-s per audio hour"
    )
    one, eight, diff = campplus_batches()
    print(
        f"CAM++ 20 crops of 6 s: batch 1 {one:.2f} CPU-s, batch 8 {eight:.2f} CPU-s ({eight / one:.2f}x), max embedding difference {diff:.1e}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
