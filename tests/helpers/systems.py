"""Systems made from the reference, with known planted errors, to check scoring end to end."""

from __future__ import annotations

import csv
import json
from pathlib import Path

SUBSTITUTE, INSERTED = "zzsub", "zzins"


def reference_units(utterances_csv: Path, benchmark_csv: Path) -> dict[str, list[dict]]:
    """Per whole-recording unit id: the reference utterances of the selected recordings."""
    with benchmark_csv.open(encoding="utf-8") as stream:
        selected = {row["recording_id"] for row in csv.DictReader(stream)}
    units: dict[str, list[dict]] = {}
    with utterances_csv.open(encoding="utf-8") as stream:
        for row in csv.DictReader(stream):
            if row["recording_id"] in selected:
                units.setdefault(row["recording_id"].replace("::", "__"), []).append(row)
    return units


def write_system(folder: Path, units: dict[str, list[dict]], plant: bool) -> dict[str, int]:
    """SegLST per unit; with ``plant``, one substitution, deletion, insertion per unit.

    Returns the planted counts. Errors go into the unit's first three
    utterances with at least two plain words (so no tokenizer rule touches them),
    and the unit's last worded utterance is given to another of its speakers (a
    speaker swap: it costs cpWER, not the speaker-agnostic WER).
    """
    folder.mkdir(parents=True, exist_ok=True)
    planted = {"substitutions": 0, "deletions": 0, "insertions": 0, "swaps": 0}
    for unit, rows in units.items():
        segments = []
        wordy = [
            k
            for k, r in enumerate(rows)
            if len(r["words"].split()) >= 2 and r["words"].replace(" ", "").isalpha()
        ]
        for k, row in enumerate(rows):
            words = row["words"].split()
            if plant and wordy[:1] == [k]:
                words[0], planted["substitutions"] = SUBSTITUTE, planted["substitutions"] + 1
            if plant and wordy[1:2] == [k]:
                words, planted["deletions"] = words[1:], planted["deletions"] + 1
            if plant and wordy[2:3] == [k]:
                words, planted["insertions"] = [*words, INSERTED], planted["insertions"] + 1
            segments.append(
                {
                    "session_id": unit,
                    "speaker": "spk-" + row["speaker"].rsplit("::", 1)[1],
                    "start_time": float(row["start_time"]),
                    "end_time": float(row["end_time"]),
                    "words": " ".join(words),
                }
            )
        speakers = sorted({seg["speaker"] for seg in segments})
        worded = [seg for seg in segments if seg["words"]]
        if plant and len(speakers) > 1 and worded:
            last = worded[-1]
            last["speaker"] = next(sp for sp in speakers if sp != last["speaker"])
            planted["swaps"] += 1
        (folder / f"{unit}.json").write_text(
            json.dumps(segments, ensure_ascii=False), encoding="utf-8"
        )
    return planted
