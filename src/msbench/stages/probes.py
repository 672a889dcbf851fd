"""``msbench probes``: HEAR-style speaker-attribution items from the annotations (results/probes/)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from msbench.stages.options import Arg, ConfigPath, RuntimeJson, SettingsJson, resolve_settings


def run(
    recordings: Annotated[Path, Arg("recordings.csv (profiles, audio paths)")],
    utterances: Annotated[Path, Arg("utterances.csv (speakers, times, words)")],
    out_dir: Annotated[Path, Arg("folder for items.jsonl, hear.jsonl, summary.json, audio/")],
    benchmark: Annotated[Path | None, Arg("benchmark.csv: probe only these recordings")] = None,
    config: ConfigPath = None,
    settings: SettingsJson = None,
    runtime: RuntimeJson = None,
) -> None:
    """Generate multiple-choice speaker-attribution items, stratified by condition.

    Clips of at most probes.max_clip_seconds cut at silences; items of the
    families in probes.families (VC, VL, VCD, CVA, VCA, IR, TR, QR), each
    labelled overlap or non-overlap, filtered by text-only baselines, with
    balanced answer positions; one WAV per item (the clip, then the voices).
    """
    import sys

    from msbench.probes.clips import lines_by_recording, recording_clips
    from msbench.probes.generate import generate
    from msbench.probes.write import rows_by_id, write_probe_set
    from msbench.tables import read_table

    resolved = resolve_settings(config, settings, runtime)
    probes = resolved["probes"]
    rows = rows_by_id(read_table(recordings))
    chosen = [str(r["recording_id"]) for r in read_table(benchmark)] if benchmark else sorted(rows)
    if probes["sources"]:
        chosen = [rid for rid in chosen if rows[rid]["source_dataset"] in probes["sources"]]
    lines = lines_by_recording(read_table(utterances))
    clips = [
        clip
        for rid in chosen
        if rows[rid].get("num_speakers") and int(rows[rid]["num_speakers"]) >= 2
        for clip in recording_clips(
            rows[rid], lines.get(rid, []), probes["max_clip_seconds"], probes["search_seconds"]
        )
    ]
    sources = {rid: str(row["source_dataset"]) for rid, row in rows.items()}
    generated = generate(clips, sources, probes)
    if probes["counterfactual"]["model"]:
        generated.pairs = counterfactual_pairs(generated, clips, rows, resolved)
    report = write_probe_set(out_dir, generated, len(clips), rows, probes)
    print(
        f"[probes] {report['items']} items from {len(clips)} clips in {out_dir}: {report['by_family']}",
        file=sys.stderr,
    )


def counterfactual_pairs(
    generated: Any, clips: list[Any], rows: Any, resolved: dict[str, Any]
) -> Any:
    """IR items re-voiced by the configured model, each checked with CAM++."""
    from msbench.models.campplus import CamPlusEmbedder
    from msbench.probes.counterfactual import load_revoicer
    from msbench.probes.pairs import make_pairs

    section = resolved["probes"]["counterfactual"]
    revoicer = load_revoicer(section["model"])
    embedder = CamPlusEmbedder(resolved["models"], 1, "cpu")
    return make_pairs(
        generated, clips, rows, (revoicer, embedder, section["source_max_similarity"])
    )
