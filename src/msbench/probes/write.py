"""Write a probe set (atomically): items.jsonl, hear.jsonl, hear_input.jsonl, probe_summary.json,
audio/.

``items.jsonl``: every field of an item; ``hear.jsonl``: HEAR's dataset fields;
``hear_input.jsonl``: the rows HEAR's runner reads (:mod:`msbench.probes.hear`),
audio paths relative to the folder; ``probe_summary.json``: the counts, what was
dropped and why, the lines never quoted by rule (``lines_not_quoted``), and every
text-only baseline's accuracy per family beside chance.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.catalog import PROBE_SUMMARY
from msbench.probes.assemble import RATE, item_audio, recording_span
from msbench.probes.generate import GENERATOR_VERSION, Generated
from msbench.probes.hear import category, hear_row, runner_row
from msbench.rows import RecordingRow


def summary(generated: Generated, clips: int, settings: Mapping[str, Any]) -> dict[str, Any]:
    rows = generated.rows
    positions: dict[str, Counter[int]] = {}
    for row in rows:
        positions.setdefault(row["subtaxonomy"], Counter())[row["answer_idx"]] += 1
    return {
        "generator_version": GENERATOR_VERSION,
        "seed": settings["seed"],
        "clips": clips,
        "recordings": len({r["recording_id"] for r in rows}),
        "items": len(rows),
        "by_family": dict(sorted(Counter(r["subtaxonomy"] for r in rows).items())),
        "by_task": dict(sorted(Counter(r["task_name"] for r in rows).items())),
        "by_overlap": dict(sorted(Counter(r["overlap"] for r in rows).items())),
        "by_category": dict(sorted(Counter(category(r) for r in rows).items())),
        "answer_positions": {
            f: [c[k] for k in range(max(c) + 1)] for f, c in sorted(positions.items())
        },
        "text_only_solvable": {k: v for k, v in sorted(generated.flagged.items()) if v},
        "text_only_policy": settings["text_only"],
        "text_only_accuracy": {
            family: budget.report()
            for family, budget in sorted(generated.text_only.items())
            if budget.items
        },
        "dropped": dict(sorted(generated.dropped.items())),
        "lines_not_quoted": dict(sorted(generated.unquoted.items())),
        "counterfactual_pairs": generated.pairs.get("pairs", 0),
        "counterfactual_not_made": {
            k: v for k, v in sorted(generated.pairs.items()) if k != "pairs"
        },
        "counterfactual_note": (
            "IR items re-voiced by probes.counterfactual.model, each checked with CAM++"
            if settings["counterfactual"]["model"]
            else "no voice-conversion model configured (probes.counterfactual.model): no pairs"
        ),
    }


def write_audio(
    folder: Path, generated: Generated, recordings: Mapping[str, Mapping[str, Any]]
) -> None:
    import soundfile

    for row, draft in zip(generated.rows, generated.drafts, strict=True):
        clip = recording_span(recordings, row["recording_id"], row["clip_start"], row["clip_end"])
        if row["question_id"] in generated.clip_edits:  # the re-voiced utterance, same timing
            start, revoiced = generated.clip_edits[row["question_id"]]
            offset = int(round((start - row["clip_start"]) * RATE))
            clip = clip.copy()
            clip[offset : offset + len(revoiced)] = revoiced[: len(clip) - offset]
        reference = draft.reference
        voices = [
            recording_span(recordings, v["recording_id"], v["start"], v["end"])
            for v in row["option_voices"]
        ]
        samples = item_audio(
            clip,
            recording_span(recordings, reference.recording_id, reference.start, reference.end)
            if reference
            else None,
            voices,
        )
        soundfile.write(folder / row["audio_path"], samples, RATE, subtype="PCM_16")


def write_probe_set(
    out_dir: Path,
    generated: Generated,
    clips: int,
    recordings: Mapping[str, Mapping[str, Any]],
    settings: Mapping[str, Any],
    force: bool = False,
) -> dict[str, Any]:
    """Write the probe set into ``out_dir`` (replaced whole; a user's files refused, or with
    ``force`` deleted: :mod:`msbench.output_folders`); its summary."""
    from msbench.catalog import HEAR_INPUT, HEAR_ITEMS, PROBE_ITEMS
    from msbench.tables import write_rows
    from msbench.textio import atomic_folder, write_json

    with atomic_folder(out_dir, "msbench probes", force) as folder:
        (folder / "audio").mkdir()
        for table, make in ((PROBE_ITEMS, dict), (HEAR_ITEMS, hear_row), (HEAR_INPUT, runner_row)):
            write_rows(table, folder / table.name, map(make, generated.rows), exact=True)
        report = summary(generated, clips, settings)
        write_json(folder / PROBE_SUMMARY, report)
        write_audio(folder, generated, recordings)
    return report


def rows_by_id(rows: Sequence[RecordingRow]) -> dict[str, RecordingRow]:
    return {r["recording_id"]: r for r in rows}
