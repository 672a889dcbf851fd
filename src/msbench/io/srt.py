"""SubRip subtitles whose cues start with their speaker (``Speaker 1: ...``, WhisperX's
``[SPEAKER_00]: ...``): numbered cues with ``hh:mm:ss,mmm --> hh:mm:ss,mmm`` times
(:mod:`msbench.io.cues` reads them)."""

from __future__ import annotations

from msbench.io.cues import read_cues, starts_with_numbered_cue
from msbench.io.sample import Sample

read_srt = read_cues


def detect(sample: Sample) -> bool:
    """Numbered cues with ``-->`` times."""
    return starts_with_numbered_cue(sample)
