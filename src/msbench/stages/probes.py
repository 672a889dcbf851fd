"""``msbench probes``: HEAR-style speaker-attribution items from the annotations (results/probes/)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import (
    Arg,
    ConfigPath,
    Force,
    RuntimeJson,
    SettingsJson,
    resolve_settings,
)


def run(
    recordings: Annotated[Path, Arg("recordings.csv (profiles, audio paths)")],
    utterances: Annotated[Path, Arg("utterances.csv (speakers, times, words)")],
    out_dir: Annotated[Path, Arg("folder for items.jsonl, hear.jsonl, probe_summary.json, audio/")],
    benchmark: Annotated[Path | None, Arg("benchmark.csv: probe only these recordings")] = None,
    ingested: Annotated[
        tuple[Path, ...], Arg("ingested recordings (JSONL): speech without words counts as active")
    ] = (),
    config: ConfigPath = None,
    settings: SettingsJson = None,
    runtime: RuntimeJson = None,
    force: Force = False,
) -> None:
    """Generate multiple-choice speaker-attribution items, stratified by condition.

    Clips of at most probes.max_clip_seconds cut at silences; items of the
    families in probes.families (VC, VL, VCD, CVA, VCA, IR, TR, QR), each
    labelled overlap or non-overlap, filtered by text-only baselines, with
    balanced answer positions; one WAV per item (the clip, then the voices).
    """
    import sys

    from msbench.catalog import BENCHMARK, INGESTED, RECORDINGS, UTTERANCES
    from msbench.probes.clips import probed_clips, speech_activity
    from msbench.probes.generate import generate
    from msbench.probes.pairs import counterfactual_pairs
    from msbench.probes.write import rows_by_id, write_probe_set
    from msbench.records import IngestedRecording
    from msbench.tables import read_rows

    resolved = resolve_settings(config, settings, runtime)
    probes = resolved["probes"]
    rows = rows_by_id(read_rows(RECORDINGS, recordings))
    selected = read_rows(BENCHMARK, benchmark) if benchmark else None
    chosen = sorted(rows) if selected is None else [str(r["recording_id"]) for r in selected]
    activity = speech_activity(
        [IngestedRecording.from_dict(r) for p in ingested for r in read_rows(INGESTED, p)]
    )
    clips = probed_clips(rows, read_rows(UTTERANCES, utterances), chosen, probes, activity)
    generated = generate(
        clips, {rid: str(row["source_dataset"]) for rid, row in rows.items()}, probes
    )
    if probes["counterfactual"]["model"]:
        generated.pairs = counterfactual_pairs(generated, clips, rows, resolved)
    report = write_probe_set(out_dir, generated, len(clips), rows, probes, force)
    families = report["by_family"]
    print(
        f"[probes] {report['items']} items from {len(clips)} clips in {out_dir}: {families}",
        file=sys.stderr,
    )
