"""Audio integrity at characterization: silence that is not speech, dropouts, clipping, DC offset.

Checked on the 16 kHz mono signal the models see, before any model runs:

* **digital silence** (every sample 0) and **near silence** (RMS over the
  reference speech below ``SILENT_DBFS`` = -60 dBFS) reject the recording:
  no model score of such audio means anything (an all-zero file got DNSMOS
  OVRL 1.84 and CAM++ similarity 0.998, and was selected);
* **no speech**: Silero VAD (:mod:`msbench.models.vad`, threshold 0.5) run
  over the recording finds speech in less than ``MIN_VAD_SHARE`` (10 %) of
  the annotated speech time, judged when the annotation marks at least
  ``MIN_VAD_SECONDS`` (10 s) of speech: white noise, a tone or a wrong file
  is not a recording of the annotated conversation (white noise and a 1 kHz
  sine were once selected). Real recordings sit far above it: the demo's
  recordings with 10 s of speech or more give 38 to 99 %; below 10 s of
  annotated speech the share is not judged
  (an AMI clip with 3.3 s of quiet backchannels gives 0 %);
* **dropouts**: a run of exact zeros longer than ``ZERO_RUN_SECONDS`` (0.5 s)
  inside reference speech;
* **heavy clipping**: over ``CLIPPING_SHARE`` (1 %) of the samples at
  ``|x| >= 0.999``;
* **DC offset**: ``|mean| > DC_OFFSET`` (0.05 of full scale).

The last three are *flags* (``integrity_flags`` in ``recordings.csv``): the
recording is characterized, and ineligible with code ``audio_integrity``, so
the pool never takes it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from msbench.errors import InputError
from msbench.records import Segment
from msbench.timeline import SpeakerTimeline, covered, merge, to_micros, to_seconds, total

SILENT_DBFS = -60.0
ZERO_RUN_SECONDS = 0.5
CLIPPING_LEVEL = 0.999
CLIPPING_SHARE = 0.01
DC_OFFSET = 0.05
MIN_VAD_SHARE = 0.10
MIN_VAD_SECONDS = 10.0
VAD_SETTINGS = {
    "threshold": 0.5,
    "min_speech_seconds": 0.25,
    "min_silence_seconds": 0.1,
    "pad_seconds": 0.0,
}


def longest_zero_run(samples: np.ndarray) -> int:
    """Length of the longest run of exact zeros.

    >>> longest_zero_run(np.array([1.0, 0, 0, 0, 2, 0, 0]))
    3
    """
    zero = np.concatenate([[0], (samples == 0).astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(zero))
    return int((edges[1::2] - edges[::2]).max()) if edges.size else 0


def speech_samples(audio: np.ndarray, rate: int, segments: Sequence[Segment]) -> list[np.ndarray]:
    return [audio[int(s.start_time * rate) : int(s.end_time * rate)] for s in segments]


BLOCK = 1 << 20  # samples per step of the whole-recording sums: no temporary grows with duration


def blocks(audio: np.ndarray) -> list[np.ndarray]:
    return [audio[start : start + BLOCK] for start in range(0, len(audio), BLOCK)]


def dbfs(pieces: Sequence[np.ndarray]) -> float:
    """RMS level of the pieces joined, in dB relative to full scale (-inf for silence).

    Summed piece by piece in float64, so no joined copy is made.

    >>> round(dbfs([np.full(50, 0.1), np.full(50, 0.1)]), 1), dbfs([np.zeros(4)]), dbfs([])
    (-20.0, -inf, -inf)
    """
    count = sum(len(p) for p in pieces)
    energy = sum(float(np.square(p, dtype=np.float64).sum()) for p in pieces)
    rms = float(np.sqrt(energy / count)) if count else 0.0
    return float(20 * np.log10(rms)) if rms > 0 else float("-inf")


def clipping_fraction(audio: np.ndarray) -> float:
    """Share of samples at full scale (``|x| >= CLIPPING_LEVEL``), counted a block at a time.

    >>> clipping_fraction(np.array([0.1, 1.0, -1.0, 0.5]))
    0.5
    """
    clipped = sum(int(np.count_nonzero(np.abs(b) >= CLIPPING_LEVEL)) for b in blocks(audio))
    return clipped / audio.size if audio.size else 0.0


def mean_level(audio: np.ndarray) -> float:
    """The mean sample (DC offset), summed in float64 a block at a time."""
    total = sum(float(b.sum(dtype=np.float64)) for b in blocks(audio))
    return total / audio.size if audio.size else 0.0


def integrity_flags(
    audio: np.ndarray, rate: int, segments: Sequence[Segment], path: str
) -> list[str]:
    """Flags of a recording's audio; InputError for digital or near silence (see the module docstring)."""
    if not any(np.any(b) for b in blocks(audio)):
        raise InputError(
            path, "digital silence: every sample is 0", fix="check the file and its channel"
        )
    speech = speech_samples(audio, rate, segments)
    level = dbfs(speech) if speech else dbfs(blocks(audio))
    if level < SILENT_DBFS:
        raise InputError(
            path,
            f"near-silent audio: speech RMS {level:.1f} dBFS, below {SILENT_DBFS:.0f} dBFS",
            fix="check the file, its channel and gain",
        )
    share, annotated = vad_speech_share(audio, rate, segments)
    if annotated >= MIN_VAD_SECONDS and share < MIN_VAD_SHARE:
        raise InputError(
            path,
            f"no speech found: Silero VAD hears speech in {share:.0%} of the {annotated:.1f} s "
            f"the annotation marks as speech (at least {MIN_VAD_SHARE:.0%} expected)",
            fix="check that this audio file, and its channel, is the recording the annotation "
            "describes",
        )
    flags = []
    run = max((longest_zero_run(piece) for piece in speech), default=0)
    if run > ZERO_RUN_SECONDS * rate:
        flags.append(f"dropout: {run / rate:.2f} s of exact zeros inside speech")
    clipped = clipping_fraction(audio)
    if clipped > CLIPPING_SHARE:
        flags.append(f"clipping: {clipped:.1%} of samples at full scale")
    offset = mean_level(audio)
    if abs(offset) > DC_OFFSET:
        flags.append(f"DC offset {offset:+.3f} of full scale")
    return flags


def vad_speech_share(
    audio: np.ndarray, rate: int, segments: Sequence[Segment]
) -> tuple[float, float]:
    """``(share of the annotated speech time in which the VAD hears speech, that time in s)``.

    Both are exact timelines in microseconds (:mod:`msbench.timeline`): the
    annotation's speech union, and the VAD's regions merged.
    """
    from msbench.models.vad import speech_regions

    annotated = SpeakerTimeline.of(segments).speech()
    length = total(annotated)
    if length <= 0:
        return 1.0, 0.0
    heard = merge((to_micros(a), to_micros(b)) for a, b in speech_regions(audio, VAD_SETTINGS))
    return sum(covered(span, heard) for span in annotated) / length, to_seconds(length)
