"""``msbench export``: the benchmark for lhotse, Kaldi/ESPnet and meeteval, each in a folder."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.export.writers import EXPORTS
from msbench.scoring.tokenizer import DEFAULT_TOKENIZER
from msbench.stages.options import Arg, Force


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
    systems: Annotated[
        tuple[str, ...], Arg("systems' config entries (JSON), converted by seglst")
    ] = (),
    tokenizer: Annotated[
        str, Arg("the run's tokenizer (seglst's normalised copies)")
    ] = DEFAULT_TOKENIZER,
    include_restricted_audio: Annotated[
        bool, Arg("hf: copy audio of sources whose licence forbids redistribution (NC, ND)")
    ] = False,
    force: Force = False,
) -> None:
    """Write the benchmark in each format of TO under OUT, with a README (loaders, licences).

    lhotse: recordings, supervisions (conditions and r_ov in custom) and one cut
    per unit; hf: parquet shards and dataset cards (the benchmark, and the probe
    set with --probes); kaldi: a data directory; seglst: meeteval references and UEM.
    """
    import json

    from msbench.export.bundle import read_bundle
    from msbench.export.writers import write_exports
    from msbench.ingest.sheet import read_dataset_sheet

    specs = read_dataset_sheet(sheet) if sheet else []
    licences = {s.name: (s.licence, s.citation) for s in specs}
    bundle = read_bundle(benchmark, recordings, utterances, units, unit_audio, ingested, licences)
    written = write_exports(
        bundle,
        to,
        out,
        probes=probes,
        coverage=benchmark.parent / "coverage.png",
        systems=[json.loads(entry) for entry in systems],
        tokenizer=tokenizer,
        include_restricted=include_restricted_audio,
        force=force,
    )
    for name, paths in written.items():
        print(f"msbench export: {name}: {', '.join(str(p.relative_to(out)) for p in paths)}")
