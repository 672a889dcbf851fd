#!/usr/bin/env bash
# The spoken prompts of the probe WAVs (src/msbench/probes/assets/): the letters A to E that
# announce CVA's voice options, as HEAR's prompt promises, and "reference voice" before a
# VL/VCA reference. Made once with espeak-ng 1.51 (Debian: apt-get install espeak-ng), voice
# en-us, 150 words a minute, resampled to 16 kHz mono 16-bit and trimmed; the files are
# shipped, so every machine assembles the same bytes (tests/unit/test_probe_hear.py checks
# their checksums). Run again only to change them.
set -euo pipefail
cd "$(dirname "$0")/.."
out=src/msbench/probes/assets
tmp=$(mktemp -d)
for word in A B C D E "reference voice"; do
  name=$([ "$word" = "reference voice" ] && echo reference || echo "$word")
  espeak-ng -v en-us -s 150 -w "$tmp/$name.wav" "$word"
done
.venv/bin/python - "$tmp" "$out" <<'PY'
import sys
from pathlib import Path

import numpy as np
import soundfile
import soxr

source, target = map(Path, sys.argv[1:])
for wav in sorted(source.glob("*.wav")):
    samples, rate = soundfile.read(wav, dtype="float32")
    samples = soxr.resample(samples, rate, 16000, quality="HQ")
    loud = np.flatnonzero(np.abs(samples) > 0.01)
    samples = samples[max(0, loud[0] - 160) : loud[-1] + 160] * (0.5 / np.abs(samples).max())
    soundfile.write(target / wav.name, samples, 16000, subtype="PCM_16")
    print(wav.name, f"{len(samples) / 16000:.2f} s")
PY
rm -r "$tmp"
