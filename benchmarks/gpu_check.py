"""The GPU path on a GPU node: same scores as the CPU path (to 1e-4) and x real time per GPU.

Run after ``scripts/install_gpu.sh`` on a node with one visible GPU (a few minutes):

  python benchmarks/gpu_check.py

Checks DNSMOS (exhaustive policy, P.835 shared computation and P.808) and
CAM++ embeddings on the demo's 60 s ES2004a excerpt against the CPU, then
times DNSMOS, NISQA and CAM++ on the GPU on a generated 10-minute recording
(:mod:`long_recordings`, seed 0). Exit status 1 when a score differs by more
than 1e-4. Not run on this project's CI machine (no GPU); see the README.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from long_recordings import generate  # noqa: E402

from msbench.audio import read_channel  # noqa: E402
from msbench.models.campplus import CamPlusEmbedder  # noqa: E402
from msbench.models.dnsmos import DnsmosScorer  # noqa: E402
from msbench.models.nisqa import NisqaScorer  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
MODELS = {"search_dirs": [str(REPO.parent / "shared" / "models")], "offline": True}
DNSMOS = {"policy": "exhaustive", "hop_seconds": 1.0}


def main() -> int:
    import torch

    if not torch.cuda.is_available():
        print("no GPU visible: run scripts/install_gpu.sh on a GPU node first")
        return 2
    audio, _ = read_channel(REPO / "resources/demo/es2004a/audio/ES2004a.flac")
    crops = [audio[k * 96000 : (k + 1) * 96000] for k in range(8)]
    worst = 0.0
    cpu, gpu = (
        DnsmosScorer(DNSMOS, device="cpu").score(audio),
        DnsmosScorer(DNSMOS, device="cuda").score(audio),
    )
    for name in ("sig", "bak", "ovrl", "p808"):
        worst = max(worst, abs(getattr(cpu, name) - getattr(gpu, name)))
    embeddings = [CamPlusEmbedder(MODELS, device=d).embed(crops) for d in ("cpu", "cuda")]
    worst = max(worst, float(np.abs(embeddings[0] - embeddings[1]).max()))
    print(f"largest CPU/GPU difference (DNSMOS scores, CAM++ embeddings): {worst:.2e}")
    long_audio = generate(1, 0, 10, 10)[0][1]
    seconds = len(long_audio) / 16000
    for label, run in (
        ("DNSMOS exhaustive", lambda: DnsmosScorer(DNSMOS, device="cuda").score(long_audio)),
        ("NISQA every chunk", lambda: NisqaScorer({"chunk_seconds": 10.0, "max_chunks": None}, MODELS, device="cuda").score(long_audio)),
        ("CAM++ 20 crops", lambda: CamPlusEmbedder(MODELS, device="cuda").embed([long_audio[k * 96000 : (k + 1) * 96000] for k in range(20)])),
    ):  # fmt: skip
        started = time.perf_counter()
        run()
        elapsed = time.perf_counter() - started
        print(
            f"{label}: {elapsed:.1f} s for {seconds / 60:.0f} min of audio, {seconds / elapsed:.0f}x real time"
        )
    return 0 if worst <= 1e-4 else 1


if __name__ == "__main__":
    raise SystemExit(main())
