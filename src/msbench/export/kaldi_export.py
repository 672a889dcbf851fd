"""The benchmark as a Kaldi / ESPnet data directory (``utils/validate_data_dir.sh`` layout).

==============  ======================================================================
``wav.scp``     ``<recording> <audio path>`` (a ``sox ... remix N |`` pipe for a channel
                of multi-channel audio, or audio that is not 16 kHz)
``segments``    ``<utterance> <recording> <start> <end>`` (seconds as the manifests write them)
``utt2spk``     ``<utterance> <speaker>``; ``spk2utt`` its inverse
``text``        ``<utterance> <words>``
``reco2dur``    ``<recording> <scored duration in seconds>``
``rttm``        the speaker turns, ``SPEAKER <recording> 1 <start> <duration> ...``
==============  ======================================================================

Speaker ids are msbench's (``<source>::<session>::<label>``), unique across
recordings; Kaldi wants utterance ids to start with their speaker's id (so that
``utt2spk`` and ``spk2utt`` sort alike), so an utterance id is
``<speaker>-<start ms, 8 digits>-<k>`` (the speaker id holds the recording's). Whitespace inside an id
becomes ``_``. Every file is sorted in C order (``LC_ALL=C sort``), as Kaldi requires.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msbench.export.bundle import Bundle
from msbench.export.ids import export_id
from msbench.io.registry import write_text
from msbench.textio import write_atomic


def _wav_entry(path: str, channel: int, channels: int, rate: int) -> str:
    if channels <= 1 and rate == 16000 and path.endswith((".wav", ".flac")):
        return path
    return f"sox {path} -t wav -r 16000 -b 16 - remix {channel + 1} |"


def _lines(rows: list[str]) -> str:
    return "".join(row + "\n" for row in sorted(rows, key=lambda r: r.encode("utf-8")))


def export_kaldi(bundle: Bundle, out: Path) -> list[Path]:
    """Write the data directory under ``out``; returns its files."""
    files: dict[str, list[str]] = {
        n: [] for n in ("wav.scp", "segments", "utt2spk", "text", "reco2dur")
    }
    turns: list[dict[str, Any]] = []  # the RTTM's, written by the format registry's writer
    by_speaker: dict[str, list[str]] = {}
    for row in bundle.selected:
        rid, audio = export_id(row["recording_id"]), bundle.audio[row["recording_id"]]
        path = str(Path(audio["audio_path"]).resolve())
        channels, rate = int(audio.get("num_channels") or 1), int(audio.get("sample_rate") or 16000)
        files["wav.scp"].append(
            f"{rid} {_wav_entry(path, int(audio.get('channel') or 0), channels, rate)}"
        )
        files["reco2dur"].append(f"{rid} {row['duration_seconds']}")
        for k, u in enumerate(bundle.utterances.get(row["recording_id"], [])):
            speaker = export_id(u.speaker)
            utt = f"{speaker}-{round(u.start * 1000):08d}-{k:05d}"
            files["segments"].append(f"{utt} {rid} {u.start} {u.end}")
            files["utt2spk"].append(f"{utt} {speaker}")
            files["text"].append(f"{utt} {' '.join(u.words.split())}")
            turns.append(
                {"session_id": rid, "speaker": speaker, "start_time": u.start, "end_time": u.end}
            )
            by_speaker.setdefault(speaker, []).append(utt)
    files["spk2utt"] = [
        f"{s} {' '.join(sorted(us, key=str.encode))}" for s, us in by_speaker.items()
    ]
    texts = {name: _lines(rows) for name, rows in files.items()}
    texts["rttm"] = write_text("rttm", turns)
    for name, text in texts.items():
        write_atomic(out / name, text)
    return [out / name for name in texts]
