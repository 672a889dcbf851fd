"""Small annotation files that mirror real corpora's quirks, written on demand."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from msbench.ingest.sheet import SourceSpec
from tests.helpers.textgrids import long_textgrid

# AISHELL-4 style: long-format TextGrid, one tier per speaker, non-speech tags,
# empty intervals, and two tiers sharing a name (one speaker).
AISHELL4_TEXTGRID = long_textgrid(
    [
        ("005", [(1.2, 4.0, "我们 今天 讨论 <%> 一下"), (4.0, 5.0, "<%>")]),
        ("006", [(0.0, 3.5, "<sil>"), (3.5, 6.0, "好的"), (6.0, 12.5, "[noise]")]),
        ("005", [(8.0, 10.0, "那 我 先 说")]),
    ],
    12.5,
)

SHORT_TEXTGRID = """File type = "ooTextFile"
Object class = "TextGrid"

0
3
<exists>
2
"IntervalTier"
"SPK1"
0
3
2
0
1
"hello"
1
3
""
"IntervalTier"
"SPK2"
0
3
1
1.5
2.5
"hi"
"""

CHIME6_SESSION = [
    {
        "end_time": "0:00:04.00",
        "start_time": "0:00:01.50",
        "words": "hello there",
        "speaker": "P05",
        "ref": "P05",
        "location": "kitchen",
        "session_id": "S02",
    },
    {
        "end_time": "0:00:05.25",
        "start_time": "0:00:03.00",
        "words": "[laughs] hi",
        "speaker": "P06",
        "ref": "P06",
        "location": "kitchen",
        "session_id": "S02",
    },
    {
        "end_time": "0:01:02.00",
        "start_time": "0:01:00.00",
        "words": "ok",
        "speaker": "P05",
        "ref": "P05",
        "location": "dining",
        "session_id": "S02",
    },
]

DIPCO_SESSION = [
    {
        "session_id": "S01",
        "speaker": "P01",
        "words": "hi",
        "start_time": {"close-talk": "00:00:01.00", "U01": "00:00:01.02"},
        "end_time": {"close-talk": "00:00:02.00", "U01": "00:00:02.02"},
    },
    {
        "session_id": "S01",
        "speaker": "P02",
        "words": "hey",
        "start_time": {"close-talk": "00:00:02.50", "U01": "00:00:02.52"},
        "end_time": {"close-talk": "00:00:03.00", "U01": "00:00:03.02"},
    },
]


def write_tone(path: Path, seconds: float, rate: int = 16000, channels: int = 1) -> Path:
    import soundfile

    t = np.arange(int(seconds * rate)) / rate
    wave = 0.1 * np.sin(2 * np.pi * 220 * t)
    data = np.stack([wave] * channels, axis=1) if channels > 1 else wave
    path.parent.mkdir(parents=True, exist_ok=True)
    soundfile.write(str(path), data, rate, subtype="PCM_16")
    return path


def rttm_line(session: str, start: float, duration: float, speaker: str) -> str:
    return f"SPEAKER {session} 1 {start:.3f} {duration:.3f} <NA> <NA> {speaker} <NA> <NA>\n"


#: Sheet columns that name files: given relative to the folder by :func:`folder_source`.
PATH_COLUMNS = ("uem", "transcripts", "recordings")


def folder_source(
    folder: Path,
    adapter: str = "rttm",
    annotations: str = "*.rttm",
    audio: str | None = "{session}.wav",
    name: str = "c",
    **extra: str,
) -> SourceSpec:
    """A dataset-sheet row whose files all lie in ``folder`` (patterns relative to it)."""
    columns = {k: str(folder / v) if k in PATH_COLUMNS else v for k, v in extra.items()}
    located = str(folder / audio) if audio else ""
    return SourceSpec(
        name=name, adapter=adapter, annotations=str(folder / annotations), audio=located, **columns
    )
