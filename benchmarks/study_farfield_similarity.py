"""Does far-field recording raise CAM++ speaker similarity S? Close-talk vs simulated far-field.

The demo's maxima S are 0.00 to 0.37 (headset mixes) while the release's
far-field sources sit at 0.55 to 0.81. This study takes clean multi-speaker
audio with known speaker turns, renders it in simulated rooms, and computes S
with msbench's default method (:func:`msbench.features.similarity.speaker_similarity`:
clean segments over 2 s, up to 5 a speaker, 6 s central crops, CAM++
``campplus_cn_en_common``, max pairwise cosine of the speakers' mean
embeddings) on each version:

* sources: the ES2004a excerpt's four headset channels (AMI, real meeting
  speech, its word-level RTTM) and seeded 3-minute LibriSpeech conversations
  (``long_meetings.py``, four speakers);
* close-talk: the dry sources summed;
* far-field: a pyroomacoustics shoebox room (6 x 5 x 3 m) with RT60 0.3, 0.6
  or 0.9 s, the speakers around a table 1.0 or 2.5 m from one microphone
  (image-source method, each speaker convolved with their own room impulse
  response), plus white noise at 20 or 5 dB SNR.

It prints S per condition (median, min to max over the recordings) beside the
release's per-source values (``metadata.jsonl``). Needs ``pip install
pyroomacoustics`` (not a dependency of msbench).

    python benchmarks/study_farfield_similarity.py --conversations 4
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import soundfile

sys.path.insert(0, str(Path(__file__).resolve().parent))
from long_meetings import RATE, REPO, turns  # noqa: E402

SHARED = REPO.parent / "shared"
EXCERPT = SHARED / "data" / "ami-es2004a-60s"
ROOM = (6.0, 5.0, 3.0)
MIC = (3.0, 2.5, 1.2)


def es2004a() -> tuple[list[np.ndarray], list[tuple[str, float, float]]]:
    """The four headset channels and the speaker turns of the word-level RTTM."""
    sources = [
        soundfile.read(EXCERPT / "sources" / f"source{k}.wav", dtype="float32")[0] for k in range(4)
    ]
    spans = []
    for line in (EXCERPT / "ES2004a_750-810s.words.rttm").read_text().splitlines():
        fields = line.split()
        spans.append((fields[7], float(fields[3]), float(fields[3]) + float(fields[4])))
    speakers = sorted({s for s, _, _ in spans})
    order = ["MEO015", "FEE013", "MEE014", "FEE016"]  # the README's source order
    assert set(order) == set(speakers), speakers
    return [sources[order.index(s)] for s in speakers], spans


def conversation(seed: int) -> tuple[list[np.ndarray], list[tuple[str, float, float]]]:
    """A seeded 3-minute LibriSpeech conversation as one dry track per speaker, and its turns."""
    placed = turns(3.0, seed)
    speakers = sorted({t.speaker for t in placed})
    total = max(t.start + len(t.audio) for t in placed)
    tracks = [np.zeros(total, np.float32) for _ in speakers]
    spans = []
    for t in placed:
        tracks[speakers.index(t.speaker)][t.start : t.start + len(t.audio)] += t.audio
        spans.append((t.speaker, t.start / RATE, (t.start + len(t.audio)) / RATE))
    return tracks, spans


def far_field(
    tracks: list[np.ndarray], rt60: float, distance: float, snr: float, seed: int
) -> np.ndarray:
    import pyroomacoustics as pra

    absorption, order = pra.inverse_sabine(rt60, ROOM)
    room = pra.ShoeBox(ROOM, fs=RATE, materials=pra.Material(absorption), max_order=min(order, 30))
    angles = np.linspace(0, 2 * np.pi, len(tracks), endpoint=False) + 0.3
    for track, angle in zip(tracks, angles, strict=True):
        position = (MIC[0] + distance * np.cos(angle), MIC[1] + distance * np.sin(angle), 1.2)
        room.add_source(position, signal=track)
    room.add_microphone(MIC)
    room.simulate()
    signal = room.mic_array.signals[0][: len(tracks[0])].astype(np.float32)
    power = float(np.mean(signal**2))
    noise = np.random.default_rng(seed).standard_normal(len(signal)).astype(np.float32)
    signal = signal + noise * np.sqrt(power / 10 ** (snr / 10))
    return (signal / max(1e-9, float(np.abs(signal).max())) * 0.5).astype(np.float32)


def similarity(
    audio: np.ndarray, spans: list[tuple[str, float, float]], embed, settings
) -> float | None:  # noqa: ANN001
    from msbench.features.similarity import speaker_similarity
    from msbench.records import Segment

    segments = [Segment("x", a, b, speaker) for speaker, a, b in spans]
    return speaker_similarity(segments, audio, RATE, embed, settings).maximum


def release_ranges() -> dict[str, tuple[float, float, int]]:
    rows = [
        json.loads(x)
        for x in (SHARED / "data" / "msbench-release" / "metadata.jsonl").read_text().splitlines()
    ]
    by: dict[str, list[float]] = {}
    for r in rows:
        if r.get("speaker_similarity_max") is not None:
            by.setdefault(r["source_dataset"], []).append(float(r["speaker_similarity_max"]))
    return {k: (min(v), max(v), len(v)) for k, v in sorted(by.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=4)
    args = parser.parse_args()

    from msbench.config import default_config
    from msbench.models.campplus import CamPlusEmbedder

    config = default_config()
    models = dict(config["models"], search_dirs=[str(SHARED / "models")])
    embed = CamPlusEmbedder(models, 1, "cpu").embed
    settings = config["acoustic"]["similarity"]
    recordings = [("ES2004a headsets", *es2004a())]
    recordings += [(f"LibriSpeech #{k}", *conversation(k)) for k in range(args.conversations)]
    conditions = [("close-talk", None)] + [
        (f"far RT60 {rt60:.1f} s, {d:.1f} m, {snr:.0f} dB", (rt60, d, snr))
        for rt60 in (0.3, 0.6, 0.9)
        for d in (1.0, 2.5)
        for snr in (20.0, 5.0)
    ]
    values: dict[str, list[float]] = {name: [] for name, _ in conditions}
    per_recording: dict[str, dict[str, float | None]] = {}
    for label, tracks, spans in recordings:
        per_recording[label] = {}
        for name, room in conditions:
            audio = np.sum(tracks, axis=0) if room is None else far_field(tracks, *room, seed=7)
            s = similarity(np.clip(audio, -1, 1).astype(np.float32), spans, embed, settings)
            per_recording[label][name] = s
            if s is not None:
                values[name].append(s)
        print(
            f"{label}: "
            + ", ".join(f"{n}={v:.2f}" for n, v in per_recording[label].items() if v is not None),
            file=sys.stderr,
        )
    print("| condition | recordings | median S | min to max S |")
    print("|---|---|---|---|")
    for name, found in values.items():
        if found:
            print(
                f"| {name} | {len(found)} | {np.median(found):.2f} | {min(found):.2f} to {max(found):.2f} |"
            )
    print("\n| release source | recordings | min to max S |")
    print("|---|---|---|")
    for source, (low, high, count) in release_ranges().items():
        print(f"| {source} | {count} | {low:.2f} to {high:.2f} |")


if __name__ == "__main__":
    main()
