"""Seeded long, quality-drifting recordings for the feature benchmarks (not real meetings).

Each recording is built from the shared real speech: LibriSpeech utterances
(``../shared/data/librispeech-speakers``, read speech) or AMI headset-mix clips
(``../shared/data/ami-30s``, meeting speech), one source per recording,
concatenated with 0.2 to 1.0 s pauses up to a length drawn from
``[min_minutes, max_minutes]``. Degradations, all drawn from the seed:

* additive noise of one type (white, pink, brown, babble of four other
  utterances, or mains hum with harmonics) at an SNR that drifts piecewise
  linearly between 4 to 7 knots drawn from 0 to 30 dB;
* reverberation for half of the recordings (an exponentially decaying noise
  impulse response, RT60 0.2 to 0.9 s);
* 3 to 12 noise bursts (0.2 to 1.5 s, 6 to 15 dB above the speech level).

``python benchmarks/long_recordings.py --out DIR`` writes them as FLAC with a
JSON description; the benchmarks call :func:`generate` directly.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import soundfile

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared" / "data"
RATE = 16000
NOISES = ("white", "pink", "brown", "babble", "hum")


@dataclass(frozen=True)
class Description:
    name: str
    speech: str
    minutes: float
    noise: str
    snr_knots_db: tuple[float, ...]
    rt60_seconds: float | None
    bursts: int


def speech_files(kind: str) -> list[Path]:
    if kind == "librispeech":
        return sorted((SHARED / "librispeech-speakers").rglob("*.flac"))
    return sorted((SHARED / "ami-30s" / "audio").glob("*.wav"))


def read16k(path: Path) -> np.ndarray:
    samples, rate = soundfile.read(path, dtype="float32", always_2d=True)
    samples = samples[:, 0]
    if rate != RATE:
        import soxr

        samples = soxr.resample(samples, rate, RATE).astype(np.float32)
    return samples


def speech(rng: np.random.Generator, kind: str, seconds: float) -> np.ndarray:
    files = speech_files(kind)
    parts, total = [], 0
    while total < seconds * RATE:
        parts.append(read16k(files[rng.integers(len(files))]))
        parts.append(np.zeros(int(rng.uniform(0.2, 1.0) * RATE), np.float32))
        total += len(parts[-2]) + len(parts[-1])
    return np.concatenate(parts)[: int(seconds * RATE)]


def coloured(rng: np.random.Generator, kind: str, n: int) -> np.ndarray:
    if kind == "hum":
        t = np.arange(n) / RATE
        return sum(
            np.sin(2 * np.pi * 50 * h * t + rng.uniform(0, 6.3)) / h for h in (1, 2, 3, 5)
        ).astype(np.float32)
    if kind == "babble":
        return sum(speech(rng, "librispeech", n / RATE) for _ in range(4)).astype(np.float32)
    spectrum = np.fft.rfft(rng.standard_normal(n))
    frequency = np.maximum(np.fft.rfftfreq(n, 1 / RATE), 1.0)
    shape = {"white": 1.0, "pink": frequency**-0.5, "brown": frequency**-1.0}[kind]
    return np.fft.irfft(spectrum * shape, n).astype(np.float32)


def power(x: np.ndarray) -> float:
    return float(np.mean(x.astype(np.float64) ** 2)) + 1e-12


def degrade(
    rng: np.random.Generator,
    clean: np.ndarray,
    noise_kind: str,
    knots: np.ndarray,
    rt60: float | None,
    bursts: int,
) -> np.ndarray:
    n = len(clean)
    if rt60 is not None:
        from scipy.signal import fftconvolve

        taps = np.arange(int(rt60 * RATE)) / RATE
        response = rng.standard_normal(len(taps)) * np.exp(-6.9 * taps / rt60)
        response[0] = 1.0
        clean = fftconvolve(clean, response / np.sqrt(np.sum(response**2)), mode="full")[:n].astype(
            np.float32
        )
    noise = coloured(rng, noise_kind, n)
    snr = np.interp(np.arange(n), np.linspace(0, n - 1, len(knots)), knots)
    gain = np.sqrt(power(clean) / power(noise) / 10 ** (snr / 10))
    mixed = clean + (noise * gain).astype(np.float32)
    for _ in range(bursts):
        start, length = rng.integers(0, n - RATE), int(rng.uniform(0.2, 1.5) * RATE)
        burst = coloured(rng, "white", length)
        mixed[start : start + length] += burst * np.sqrt(
            power(clean) / power(burst) * 10 ** (rng.uniform(6, 15) / 10)
        )
    return (mixed / max(1.0, float(np.abs(mixed).max()) / 0.99)).astype(np.float32)


def generate(
    count: int, seed: int, min_minutes: float, max_minutes: float
) -> list[tuple[Description, np.ndarray]]:
    rng = np.random.default_rng(seed)
    out = []
    for index in range(count):
        minutes = round(float(rng.uniform(min_minutes, max_minutes)), 2)
        kind = ("librispeech", "ami")[index % 2]
        noise = NOISES[int(rng.integers(len(NOISES)))]
        knots = np.round(rng.uniform(0, 30, int(rng.integers(4, 8))), 1)
        rt60 = round(float(rng.uniform(0.2, 0.9)), 2) if rng.random() < 0.5 else None
        bursts = int(rng.integers(3, 13))
        audio = degrade(rng, speech(rng, kind, minutes * 60), noise, knots, rt60, bursts)
        out.append(
            (
                Description(
                    f"long{index:02d}", kind, minutes, noise, tuple(knots.tolist()), rt60, bursts
                ),
                audio,
            )
        )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-minutes", type=float, default=5.0)
    parser.add_argument("--max-minutes", type=float, default=30.0)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    descriptions = []
    for description, audio in generate(args.count, args.seed, args.min_minutes, args.max_minutes):
        soundfile.write(args.out / f"{description.name}.flac", audio, RATE, subtype="PCM_16")
        descriptions.append(asdict(description))
    (args.out / "recordings.json").write_text(json.dumps(descriptions, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
