"""Feature extraction speed and agreement, against the reference implementations, in one run.

(a) the demo corpus (15 recordings, 7.5 min); (b) a 30-minute recording made
by concatenating the demo's AMI audio (annotations shifted along). For each
extractor: our real-time factor (audio seconds / processing seconds, higher is
faster) next to the reference on the same audio:

* DNSMOS: ``speechmos.dnsmos.run`` (1 s hop, every window it does not skip);
* NISQA: the ``nisqa`` package's predictor (``nisqaModel``, predict_file) on
  45 s chunks written to disk, the longest it accepts below its ~52 s limit;
* CAM++: the same segments embedded one at a time.

Agreement: DNSMOS OVRL and NISQA MOS means (ours, default policy, vs
reference), and the Spearman correlation of d_N over the AMI demo pool
between exhaustive scoring (the default), the 24-window budget and a tight one.
Long recordings and every policy: ``bench_policies.py``.
Run on one core:  taskset -c 0 python benchmarks/bench_features.py
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import soundfile
from scipy.stats import spearmanr

from msbench.config import default_config
from msbench.features.acoustic import AcousticExtractor, load_16k
from msbench.features.quality_rank import add_noise_difficulty
from msbench.features.similarity import clean_segments
from msbench.ingest.sheet import read_dataset_sheet
from msbench.ingest.source import IngestedRecording, ingest_source
from msbench.records import Recording, Segment

REPO = Path(__file__).resolve().parents[1]
SHARED_MODELS = REPO.parent / "shared" / "models"


def demo_recordings() -> list[IngestedRecording]:
    items = []
    for spec in read_dataset_sheet(REPO / "resources" / "demo" / "datasets.tsv"):
        spec = type(spec)(
            **{
                **spec.__dict__,
                "annotations": str(REPO / spec.annotations),
                "audio": str(REPO / spec.audio),
            }
        )
        items += ingest_source(spec).recordings
    return items


def long_recording(
    items: list[IngestedRecording], minutes: float, folder: Path
) -> IngestedRecording:
    """Concatenate AMI demo clips (and shift their segments) up to ``minutes``."""
    audio, segments, offset = [], [], 0.0
    ami = [i for i in items if i.recording.source_dataset == "ami"]
    while offset < minutes * 60:
        for item in ami:
            samples, _ = load_16k(item)
            audio.append(samples)
            segments += [
                Segment(
                    "long",
                    s.start_time + offset,
                    s.end_time + offset,
                    f"{item.recording.session_id}-{s.speaker}",
                )
                for s in item.segments
            ]
            offset += samples.size / 16000
            if offset >= minutes * 60:
                break
    path = folder / "long.flac"
    samples = np.concatenate(audio)[: int(minutes * 60 * 16000)]
    soundfile.write(path, samples, 16000, subtype="PCM_16")
    segments = [s for s in segments if s.end_time <= samples.size / 16000]
    recording = Recording(
        "bench::long",
        "bench",
        "long",
        str(path),
        samples.size / 16000,
        16000,
        1,
        0,
        "English",
        "Meeting",
        "headset mix",
        "",
    )
    return IngestedRecording(recording, tuple(segments))


def timed(function, *args):
    started = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - started


def ours(extractor: AcousticExtractor, items: list[IngestedRecording]) -> dict:
    totals = {"campplus": 0.0, "dnsmos": 0.0, "nisqa": 0.0}
    scores = []
    for item in items:
        audio, _ = load_16k(item)
        crops = clean_segments(item.segments, extractor.settings["similarity"])
        pieces = [
            audio[int(a * 16000) : int(b * 16000)] for spans in crops.values() for a, b in spans
        ]
        if pieces:
            _, seconds = timed(extractor.embedder.embed, pieces)
            totals["campplus"] += seconds
        dnsmos, seconds = timed(extractor.dnsmos.score, audio)
        totals["dnsmos"] += seconds
        nisqa, seconds = timed(extractor.nisqa.score, audio)
        totals["nisqa"] += seconds
        scores.append(
            {
                "id": item.recording.recording_id,
                "dnsmos_ovrl": dnsmos.ovrl,
                "nisqa_mos": nisqa.mos,
                "pieces": pieces,
            }
        )
    return {"seconds": totals, "scores": scores}


def reference(items: list[IngestedRecording], scores: list[dict], folder: Path) -> dict:
    import torch
    from nisqa.NISQA_model import nisqaModel
    from speechmos import dnsmos

    totals = {"campplus": 0.0, "dnsmos": 0.0, "nisqa": 0.0}
    results = []
    embedder = None
    for item, ours_row in zip(items, scores, strict=False):
        audio, _ = load_16k(item)
        output, seconds = timed(dnsmos.run, audio, 16000)
        totals["dnsmos"] += seconds
        nisqa_scores, weights = [], []
        started = time.perf_counter()
        chunk = 45 * 16000
        for first in range(0, audio.size, chunk):
            piece = audio[first : first + chunk]
            if piece.size < 16000:
                continue
            path = folder / "chunk.wav"
            soundfile.write(path, piece, 16000)
            args = {
                "mode": "predict_file",
                "pretrained_model": str(SHARED_MODELS / "nisqa" / "nisqa.tar"),
                "deg": str(path),
                "output_dir": None,
                "ms_channel": None,
                "tr_bs_val": 1,
                "tr_num_workers": 0,
                "tr_parallel": False,
            }
            with contextlib.redirect_stdout(io.StringIO()):
                frame = nisqaModel(args).predict()
            nisqa_scores.append(float(frame["mos_pred"].iloc[0]))
            weights.append(piece.size)
        totals["nisqa"] += time.perf_counter() - started
        if embedder is None:
            from msbench.models.campplus import CamPlusEmbedder

            embedder = CamPlusEmbedder({"search_dirs": [str(SHARED_MODELS)], "offline": True})
        started = time.perf_counter()
        for piece in ours_row["pieces"]:
            embedder.embed([piece])
        totals["campplus"] += time.perf_counter() - started
        results.append(
            {
                "dnsmos_ovrl": float(output["ovrl_mos"]),
                "nisqa_mos": float(np.average(nisqa_scores, weights=weights)),
            }
        )
    del torch
    return {"seconds": totals, "scores": results}


def report(label: str, audio_seconds: float, mine: dict, theirs: dict) -> None:
    print(f"\n### {label}: {audio_seconds / 60:.1f} min of audio\n")
    print(
        "| extractor | ours: s | ours: x real time | reference: s | reference: x real time | speed-up |"
    )
    print("|---|---|---|---|---|---|")
    for name in ("campplus", "dnsmos", "nisqa"):
        a, b = mine["seconds"][name], theirs["seconds"][name]
        print(
            f"| {name} | {a:.1f} | {audio_seconds / max(a, 1e-9):.0f} | {b:.1f} | {audio_seconds / max(b, 1e-9):.1f} | {b / max(a, 1e-9):.1f} |"
        )
    a, b = sum(mine["seconds"].values()), sum(theirs["seconds"].values())
    print(
        f"| **all** | {a:.1f} | **{audio_seconds / a:.0f}** | {b:.1f} | {audio_seconds / b:.1f} | {b / a:.1f} |"
    )
    for key in ("dnsmos_ovrl", "nisqa_mos"):
        ours_mean = np.mean([s[key] for s in mine["scores"]])
        ref_mean = np.mean([s[key] for s in theirs["scores"]])
        print(
            f"\n{key}: ours {ours_mean:.3f}, reference {ref_mean:.3f}, |difference| {abs(ours_mean - ref_mean):.3f}"
        )


def rank_agreement(items: list[IngestedRecording], settings: dict) -> None:
    ami = [i for i in items if i.recording.source_dataset == "ami"]
    policies = {
        "exhaustive (default: every window, every chunk)": {"policy": "exhaustive", "max_windows": None, "max_chunks": None},
        "budget (24 windows, 18 chunks)": {"policy": "budget", "max_windows": 24, "max_chunks": 18},
        "tight budget (3 windows, 1 chunk)": {"policy": "budget", "max_windows": 3, "max_chunks": 1},
    }  # fmt: skip
    ranks = {}
    for name, policy in policies.items():
        acoustic = {
            **settings["acoustic"],
            "dnsmos": {
                **settings["acoustic"]["dnsmos"],
                "policy": policy["policy"],
                "max_windows": policy["max_windows"],
            },
            "nisqa": {**settings["acoustic"]["nisqa"], "max_chunks": policy["max_chunks"]},
        }
        extractor = AcousticExtractor(acoustic, settings["models"])
        rows = []
        for item in ami:
            audio, _ = load_16k(item)
            rows.append(
                {
                    "dnsmos_ovrl": extractor.dnsmos.score(audio).ovrl,
                    "nisqa_mos": extractor.nisqa.score(audio).mos,
                }
            )
        ranks[name] = [r["noise_difficulty"] for r in add_noise_difficulty(rows)]
    reference_ranks = ranks["exhaustive (default: every window, every chunk)"]
    print("\n### d_N rank agreement over the 14 AMI demo clips\n")
    print("| window policy | Spearman vs exhaustive |")
    print("|---|---|")
    for name, values in ranks.items():
        print(f"| {name} | {spearmanr(values, reference_ranks).statistic:.3f} |")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=30.0, help="length of the long recording")
    parser.add_argument(
        "--skip-reference-long",
        action="store_true",
        help="skip the (slow, about 25 min) reference run on the long recording",
    )
    parser.add_argument(
        "--long-only", action="store_true", help="time only our extractors on the long recording"
    )
    args = parser.parse_args()
    settings = default_config()
    settings["models"]["search_dirs"] = [str(SHARED_MODELS)]
    settings["models"]["offline"] = True
    extractor = AcousticExtractor(settings["acoustic"], settings["models"])
    items = demo_recordings()
    warm, _ = load_16k(items[0])
    (
        extractor.embedder.embed([warm[:32000]]),
        extractor.dnsmos.score(warm),
        extractor.nisqa.score(warm),
    )
    if args.long_only:
        with tempfile.TemporaryDirectory() as folder:
            long = long_recording(items, args.minutes, Path(folder))
            seconds = ours(extractor, [long])["seconds"]
        total = sum(seconds.values())
        print(
            f"{args.minutes:.0f} min, ours: "
            + ", ".join(f"{k} {v:.1f} s" for k, v in seconds.items())
            + f"; all {total:.1f} s = {long.recording.duration_seconds / total:.0f} x real time"
        )
        return 0
    with tempfile.TemporaryDirectory() as folder:
        demo_seconds = sum(i.recording.duration_seconds for i in items)
        mine = ours(extractor, items)
        theirs = reference(items, mine["scores"], Path(folder))
        report("(a) demo corpus", demo_seconds, mine, theirs)
        long = long_recording(items, args.minutes, Path(folder))
        mine_long = ours(extractor, [long])
        if not args.skip_reference_long:
            theirs_long = reference([long], mine_long["scores"], Path(folder))
            report(
                f"(b) one {args.minutes:.0f}-minute recording",
                long.recording.duration_seconds,
                mine_long,
                theirs_long,
            )
        else:
            total = sum(mine_long["seconds"].values())
            print(
                f"\n(b) {args.minutes:.0f} min: ours {total:.1f} s, {long.recording.duration_seconds / total:.0f} x real time"
            )
    rank_agreement(items, settings)
    return 0


if __name__ == "__main__":
    sys.exit(main())
