"""The formats msbench writes (the registry's ``writer``: RTTM, STM, SegLST, WebVTT) read back
as written, by msbench's own readers and by meeteval's, on seeded random segments at size
(24 speakers, 3000 segments, times to the millisecond, words in four scripts)."""

from __future__ import annotations

import random
from decimal import Decimal
from pathlib import Path

import meeteval
import pytest

from msbench.io.read import read_segments
from msbench.io.registry import BY_NAME, OUTPUT_FORMATS, REGISTRY, WRITABLE, write_text

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core

WORDS = ("hello", "there", "yes", "no", "会议", "开始", "naïve", "café", "ok", "right")


def random_segments(seed: int, count: int = 3000, speakers: int = 24) -> list[dict]:
    rng = random.Random(seed)
    segments = []
    for _ in range(count):
        start = Decimal(rng.randrange(0, 9_540_000)) / 1000  # 159 minutes, in ms
        length = Decimal(rng.randrange(1, 15_000)) / 1000
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(1, 12)))
        segments.append(
            {"session_id": "meeting__u01", "speaker": f"spk{rng.randrange(speakers):02d}",
             "start_time": float(start), "end_time": float(start + length), "words": words}
        )  # fmt: skip
    return segments


def key(segment: dict, words: bool = True) -> tuple:
    fields = (segment["speaker"], segment["start_time"], segment["end_time"])
    return (*fields, segment["words"]) if words else fields


def test_every_writer_is_a_registered_scoring_format_with_a_suffix():
    assert set(WRITABLE) == {"rttm", "stm", "seglst", "webvtt"}
    assert set(OUTPUT_FORMATS) == {"stm", "seglst", "webvtt"}  # RTTM holds no words
    for name in WRITABLE:
        assert BY_NAME[name].scoring and BY_NAME[name].suffixes
    with pytest.raises(ValueError, match="msbench writes no ctm files"):
        write_text("ctm", [])
    assert len(REGISTRY) == len(BY_NAME)


@pytest.mark.parametrize("name", ["rttm", "stm", "seglst", "webvtt"])
def test_what_msbench_writes_msbench_reads_back_exactly(tmp_path: Path, name: str):
    segments = random_segments(seed=len(name))
    path = tmp_path / f"meeting__u01{BY_NAME[name].suffixes[0]}"
    path.write_text(write_text(name, segments), encoding="utf-8")
    read = [s.to_seglst() | {"words": s.words} for s in read_segments(path, name)]
    words = BY_NAME[name].words
    assert sorted(key(s, words) for s in read) == sorted(key(s, words) for s in segments)


@pytest.mark.parametrize("name", ["rttm", "stm", "seglst"])
def test_what_msbench_writes_meeteval_reads_back(tmp_path: Path, name: str):
    """meeteval's own parsers (its RTTM end is start + duration, a float sum: compared to 1e-9)."""
    segments = random_segments(seed=7)
    path = tmp_path / f"out.{name}"
    path.write_text(write_text(name, segments), encoding="utf-8")
    loader = {"rttm": meeteval.io.RTTM, "stm": meeteval.io.STM, "seglst": meeteval.io.SegLST}
    theirs = loader[name].load(path).to_seglst()
    assert len(theirs) == len(segments)

    def rounded(s: dict) -> tuple:
        words = s["words"] if BY_NAME[name].words else ""
        return (
            s["speaker"],
            round(float(s["start_time"]), 9),
            round(float(s["end_time"]), 9),
            words,
        )

    assert sorted(map(rounded, theirs)) == sorted(map(rounded, segments))
