"""A 14-recording benchmark of real AMI words (the demo's STMs), and systems built from it.

The references are the AMI manual transcripts shipped with the demo
(``resources/demo/ami/annotations/words``). Hypotheses are made from them with
known, planted errors; the evaluate and diagnose stages run on them exactly as
the workflow runs them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from msbench.catalog import BENCHMARK, UTTERANCES
from msbench.io.read import read_segments
from msbench.records import Segment
from msbench.tables import write_rows
from msbench.timeline import SpeakerTimeline
from tests.helpers.paths import REPO

WORDS = REPO / "resources" / "demo" / "ami" / "annotations" / "words"

References = dict[str, list[Segment]]


def demo_references() -> References:
    """Recording id (``ami::<clip>``) -> its worded reference utterances, in file order."""
    out: References = {}
    for path in sorted(WORDS.glob("*.stm")):
        rid = f"ami::{path.stem}"
        out[rid] = [
            Segment(rid, s.start_time, s.end_time, f"{rid}::{s.speaker}", s.words)
            for s in read_segments(path, "stm")
            if s.words
        ]
    return out


def exposure_and_switches(utterances: list[Segment]) -> list[tuple[float, float | None]]:
    """``(r_ov, distance to the nearest switch in s)`` of each utterance, computed here directly."""
    timeline = SpeakerTimeline.from_segments(
        (u.speaker, u.start_time, u.end_time) for u in utterances
    )
    switches = [(a / 1e6, b / 1e6) for a, b in timeline.switches()]
    out = []
    for u in utterances:
        r_ov = timeline.exposure(u.speaker, u.start_time, u.end_time)
        gaps = [max(0.0, a - u.end_time, u.start_time - b) for a, b in switches]
        out.append((r_ov, min(gaps) if gaps else None))
    return out


def write_inputs(
    folder: Path, references: References, d_n: Mapping[str, float] | None = None
) -> None:
    """benchmark.csv and utterances.csv of the references (condition labels made up, stated)."""
    folder.mkdir(parents=True, exist_ok=True)
    benchmark = []
    for k, (rid, utterances) in enumerate(references.items()):
        speakers = len({u.speaker for u in utterances})
        benchmark.append(
            {"recording_id": rid, "source_dataset": "ami-a" if k % 2 else "ami-b",
             "language": "English", "duration_seconds": 30.0, "P": f"P{min(speakers, 3)}",
             "num_speakers": speakers, "overlap_ratio": 0.1,
             "noise_difficulty": (d_n or {}).get(rid, k / len(references))}
        )  # fmt: skip
    write_rows(BENCHMARK, folder / "benchmark.csv", benchmark)
    rows = [
        {"recording_id": rid, "speaker": u.speaker, "start_time": u.start_time,
         "end_time": u.end_time, "words": u.words}
        for rid, utterances in references.items() for u in utterances
    ]  # fmt: skip
    write_rows(UTTERANCES, folder / "utterances.csv", rows)


def write_similarity(path: Path, matrices: Mapping[str, Mapping[tuple[str, str], float]]) -> None:
    with path.open("w", encoding="utf-8") as stream:
        for rid, pairs in matrices.items():
            ids = sorted({speaker for pair in pairs for speaker in pair})
            matrix = [[1.0 if a == b else pairs.get((a, b), 0.0) for b in ids] for a in ids]
            labels = [speaker.rsplit("::", 1)[1] for speaker in ids]  # as the workflow writes them
            stream.write(
                json.dumps({"recording_id": rid, "speakers": labels, "matrix": matrix}) + "\n"
            )


Plant = Callable[[str, list[Segment]], list[Segment]]


def write_system(folder: Path, references: References, plant: Plant) -> None:
    """One SegLST per whole-recording unit: ``plant(recording id, utterances)``, speakers relabelled."""
    folder.mkdir(parents=True, exist_ok=True)
    for rid, utterances in references.items():
        segments = [
            {
                "session_id": rid.replace("::", "__"),
                "speaker": "hyp-" + s.speaker.rsplit("::", 1)[1],
                "start_time": s.start_time,
                "end_time": s.end_time,
                "words": s.words,
            }
            for s in plant(rid, [replace(u) for u in utterances])
        ]
        (folder / f"{rid.replace('::', '__')}.json").write_text(
            json.dumps(segments), encoding="utf-8"
        )


def run_system(
    tmp: Path,
    references: References,
    plant: Plant,
    name: str = "sys",
    similarity: Mapping[str, Mapping[tuple[str, str], float]] | None = None,
    diagnostics: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], Path]:
    """Evaluate and diagnose one planted system; ``(conditions.json, its evaluation folder)``."""
    from msbench.stages import diagnose, evaluate

    write_system(tmp / "outputs" / name, references, plant)
    folder = tmp / "evaluation" / name
    settings = json.dumps({"diagnostics": dict(diagnostics or {})}) if diagnostics else None
    evaluate.run(
        outputs=tmp / "outputs" / name,
        system_id=name,
        benchmark=tmp / "benchmark.csv",
        utterances=tmp / "utterances.csv",
        out_dir=folder,
    )
    write_similarity(tmp / "similarity.jsonl", similarity or {})
    diagnose.run(
        folder,
        tmp / "benchmark.csv",
        tmp / "similarity.jsonl",
        folder / "conditions.json",
        settings=settings,
    )
    return json.loads((folder / "conditions.json").read_text(encoding="utf-8")), folder


def series(conditions: Mapping[str, Any], analysis: str, label: str) -> dict[str, Any]:
    return next(s for s in conditions["analyses"][analysis]["series"] if s["label"] == label)
