"""``msbench export``: the benchmark for lhotse, Kaldi/ESPnet and meeteval, each in a folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg

EXPORTS = ("lhotse", "kaldi", "seglst")


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
) -> None:
    """Write the benchmark in each format of TO under OUT, with a README (loaders, licences).

    lhotse: recordings, supervisions (conditions and r_ov in custom) and one cut
    per unit; kaldi: a data directory; seglst: meeteval references and UEM.
    """
    from msbench.export.bundle import read_bundle
    from msbench.export.kaldi_export import export_kaldi
    from msbench.export.ledger import ledger
    from msbench.export.lhotse_export import export_lhotse
    from msbench.export.seglst_export import export_seglst
    from msbench.ingest.sheet import read_dataset_sheet
    from msbench.textio import write_atomic

    bundle = read_bundle(benchmark, recordings, utterances, units, unit_audio, ingested)
    writers = {"lhotse": export_lhotse, "kaldi": export_kaldi, "seglst": export_seglst}
    for name in to:
        written = writers[name](bundle, out / name)
        print(f"msbench export: {name}: {', '.join(p.name for p in written)}")
    licences = {s.name: s.licence for s in read_dataset_sheet(sheet)} if sheet else {}
    write_atomic(out / "README.md", ledger(bundle, to, licences))
