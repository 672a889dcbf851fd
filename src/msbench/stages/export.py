"""``msbench export``: the benchmark for lhotse, Kaldi/ESPnet and meeteval, each in a folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg

EXPORTS = ("lhotse", "hf", "kaldi", "seglst")


def run(
    to: Annotated[tuple[str, ...], Arg("formats to write", choices=EXPORTS)],
    out: Annotated[Path, Arg("folder: one sub-folder per format, and README.md")],
    benchmark: Annotated[Path, Arg("benchmark.csv")] = Path("results/manifests/benchmark.csv"),
    recordings: Annotated[Path, Arg("recordings.csv")] = Path("results/manifests/recordings.csv"),
    utterances: Annotated[Path, Arg("utterances.csv")] = Path("results/manifests/utterances.csv"),
    units: Annotated[Path, Arg("units.csv")] = Path("results/units/units.csv"),
    unit_audio: Annotated[Path, Arg("folder of the units' FLAC")] = Path("results/units/audio"),
    sheet: Annotated[Path | None, Arg("dataset sheet (its licence column)")] = None,
    ingested: Annotated[
        tuple[Path, ...], Arg("ingest manifests (the annotation turns, lhotse's activity)")
    ] = (),
    probes: Annotated[
        Path | None, Arg("probe set folder (hf: exported beside the benchmark)")
    ] = None,
) -> None:
    """Write the benchmark in each format of TO under OUT, with a README (loaders, licences).

    lhotse: recordings, supervisions (conditions and r_ov in custom) and one cut
    per unit; hf: parquet shards and dataset cards (the benchmark, and the probe
    set with --probes); kaldi: a data directory; seglst: meeteval references and UEM.
    """
    from functools import partial

    from msbench.export.bundle import Bundle, read_bundle
    from msbench.export.hf_export import export_hf
    from msbench.export.kaldi_export import export_kaldi
    from msbench.export.ledger import ledger
    from msbench.export.lhotse_export import export_lhotse
    from msbench.export.seglst_export import export_seglst
    from msbench.ingest.sheet import read_dataset_sheet
    from msbench.textio import write_atomic

    bundle = read_bundle(benchmark, recordings, utterances, units, unit_audio, ingested)
    licences = {s.name: s.licence for s in read_dataset_sheet(sheet)} if sheet else {}
    writers: dict[str, Callable[[Bundle, Path], list[Path]]] = {
        "lhotse": export_lhotse,
        "hf": partial(
            export_hf, licences=licences, probes=probes, coverage=benchmark.parent / "coverage.png"
        ),
        "kaldi": export_kaldi,
        "seglst": export_seglst,
    }
    for name in to:
        written = writers[name](bundle, out / name)
        print(f"msbench export: {name}: {', '.join(p.name for p in written)}")
    write_atomic(out / "README.md", ledger(bundle, to, licences))
