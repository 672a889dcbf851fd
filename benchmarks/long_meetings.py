"""Seeded long multi-channel meetings with an RTTM, for the memory benchmark (not real meetings).

Four LibriSpeech speakers (``../shared/data/librispeech-speakers``) take
turns: each turn is one of the speaker's utterances, the next turn starts
0.2 to 1.5 s after it ends, or up to 0.8 s before it ends (an overlap) in one
turn of four. Channel ``c`` of ``C`` is the mix at a gain of ``1 - 0.05 c``
plus white noise at -45 dBFS seeded per channel, so every channel differs and
channel 0 is the same whatever the channel count (the shape of
an AISHELL-4 or CHiME-6 array session). Turns start on the 10 ms grid, so the
RTTM's times are exact. The audio is written block by block (a minute at a
time), so a 160-minute, 8-channel FLAC is made in bounded memory.

``python benchmarks/long_meetings.py --minutes 40 --channels 8 --out DIR``
writes ``DIR/<name>.flac`` and ``DIR/<name>.rttm``; the memory benchmark
calls :func:`write_meeting` directly.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile

REPO = Path(__file__).resolve().parents[1]
SPEAKERS = REPO.parent / "shared" / "data" / "librispeech-speakers"
RATE = 16000
GRID = 160  # samples: turns start on the 10 ms grid


@dataclass(frozen=True)
class Turn:
    speaker: str
    start: int  # samples
    audio: np.ndarray


def voices(count: int = 4) -> dict[str, list[np.ndarray]]:
    """Utterances of the first ``count`` speakers that have at least three, 16 kHz float32."""
    by_speaker: dict[str, list[Path]] = {}
    for path in sorted(SPEAKERS.rglob("*.flac")):
        by_speaker.setdefault(path.name.split("-")[0], []).append(path)
    chosen = [s for s, files in sorted(by_speaker.items()) if len(files) >= 3][:count]
    return {
        f"spk{s}": [soundfile.read(p, dtype="float32")[0] for p in by_speaker[s]] for s in chosen
    }


def turns(minutes: float, seed: int) -> list[Turn]:
    rng = np.random.default_rng(seed)
    library = voices()
    names = sorted(library)
    total, placed, cursor, last = int(minutes * 60 * RATE), [], 0, ""
    while cursor < total:
        speaker = str(rng.choice([n for n in names if n != last]))
        utterances = library[speaker]
        audio = utterances[int(rng.integers(len(utterances)))]
        audio = audio[: total - cursor]
        start = cursor - cursor % GRID
        placed.append(Turn(speaker, start, audio))
        end = start + len(audio)
        gap = -rng.uniform(0.1, 0.8) if rng.random() < 0.25 else rng.uniform(0.2, 1.5)
        cursor = max(start + GRID, end + int(gap * RATE))
        last = speaker
    return placed


def write_meeting(folder: Path, minutes: float, channels: int, seed: int = 0) -> tuple[Path, Path]:
    """``(flac, rttm)`` of one meeting named ``long_<minutes>m_<channels>ch``."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"long_{minutes:g}m_{channels}ch"
    flac, rttm = folder / f"{name}.flac", folder / f"{name}.rttm"
    if flac.exists() and rttm.exists():
        return flac, rttm
    placed = turns(minutes, seed)
    total = int(minutes * 60 * RATE)
    lines = [
        f"SPEAKER {name} 1 {t.start / RATE:.2f} {len(t.audio) / RATE:.4f} <NA> <NA> {t.speaker} <NA> <NA>"
        for t in placed
    ]
    rttm.write_text("\n".join(lines) + "\n")
    noises = [
        np.random.default_rng([seed, c]) for c in range(channels)
    ]  # channel 0: same in any file
    gains = np.array([1.0 - 0.05 * c for c in range(channels)], dtype=np.float32)
    block = 60 * RATE
    partial = flac.with_suffix(".partial.flac")
    with soundfile.SoundFile(partial, "w", RATE, channels, subtype="PCM_16", format="FLAC") as out:
        index = 0
        for first in range(0, total, block):
            last = min(total, first + block)
            mix = np.zeros(last - first, dtype=np.float32)
            while index < len(placed) and placed[index].start + len(placed[index].audio) <= first:
                index += 1
            for turn in placed[index:]:
                if turn.start >= last:
                    break
                a, b = max(first, turn.start), min(last, turn.start + len(turn.audio))
                if a < b:
                    mix[a - first : b - first] += turn.audio[a - turn.start : b - turn.start]
            hiss = np.stack(
                [n.standard_normal(last - first).astype(np.float32) * 0.0056 for n in noises],
                axis=1,
            )
            out.write(np.clip(mix[:, None] * gains[None, :] * 0.5 + hiss, -1.0, 1.0))
    partial.rename(flac)
    return flac, rttm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--channels", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    for path in write_meeting(args.out, args.minutes, args.channels, args.seed):
        print(path)


if __name__ == "__main__":
    main()
