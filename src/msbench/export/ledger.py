"""The ``README.md`` every export folder starts with: what it holds, where it came from, the
licence of each source corpus, and how each library loads it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from msbench.export.bundle import Bundle
from msbench.export.licences import licence_lines

LOADERS = {
    "lhotse": "lhotse/: `CutSet.from_file('lhotse/cuts.jsonl.gz')` (one cut per unit), or "
    "`RecordingSet.from_file` / `SupervisionSet.from_file` for the recordings",
    "hf": "hf/benchmark/ and hf/probes/: `datasets.load_dataset('hf/benchmark', split='test')` "
    "(parquet with the audio inside; each folder's README.md is its dataset card; datasets "
    "caches a local folder by its name: after a new export pass download_mode='force_redownload')",
    "kaldi": "kaldi/: a Kaldi / ESPnet data directory (`utils/validate_data_dir.sh --no-feats "
    "kaldi`; lhotse: `lhotse.kaldi.load_kaldi_data_dir('kaldi', 16000)`)",
    "seglst": "seglst/: `meeteval-wer tcpwer -r seglst/normalised/references.seglst.json -h "
    "seglst/normalised/SYSTEM.seglst.json --uem seglst/units.uem --collar 5` gives msbench's "
    "counts (session_id = unit id; references also as references.stm, unnormalised); every "
    "word's class in meeteval's view: `meeteval-viz html -r seglst/normalised/references.seglst.json "
    "-h seglst/normalised/SYSTEM.seglst.json --alignment tcp --regex '^[A-Za-z0-9_.-]+$' -o viz` "
    "(the msbench review site shows the same classes: alignments/SYSTEM/UNIT.json)",
}


def ledger(bundle: Bundle, formats: Sequence[str], changes: Mapping[str, str] | None = None) -> str:
    """The export's README: counts, loaders, one licence line per source corpus, and every id
    changed for export (whitespace to ``_``, the same in every format)."""
    sources = sorted({str(r["source_dataset"]) for r in bundle.selected})
    hours = sum(float(r["duration_seconds"]) for r in bundle.selected) / 3600
    utterances = sum(len(v) for v in bundle.utterances.values())
    lines = [
        "# msbench benchmark export",
        "",
        f"{len(bundle.selected)} recordings ({hours:.4f} scored hours), {len(bundle.units)} "
        f"inference units, {utterances} reference utterances, from {len(sources)} source corpora.",
        "Written by `msbench export` from the run's manifests (results/manifests/benchmark.csv, "
        "utterances.csv, recordings.csv) and units (results/units/).",
        "",
        "## Loading",
        "",
        *[f"- {LOADERS[f]}" for f in formats],
        "",
        "## Licences (the dataset sheet's `licence` and `citation` columns)",
        "",
        *licence_lines(sources, bundle.licences),
        "",
        "Audio paths are absolute paths on the machine that exported; the audio itself is not "
        "copied (each corpus' licence governs redistribution).",
    ]
    if changes:
        lines += [
            "",
            "## Ids changed for export",
            "",
            f"{len(changes)} id(s) hold whitespace, which line formats (Kaldi, STM, UEM, RTTM) "
            "split at; every format here writes them with `_`:",
            "",
            *[f"- `{a}` -> `{b}`" for a, b in changes.items()],
        ]
    return "\n".join(lines) + "\n"
