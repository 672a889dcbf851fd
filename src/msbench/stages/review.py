"""``msbench review``: the review site (results/review/): listen, see the timeline, mark failures."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, Force, SettingsJson, resolve_settings


def run(
    benchmark: Annotated[Path, Arg("benchmark.csv (the selection under review)")],
    recordings: Annotated[Path, Arg("recordings.csv (features, audio paths)")],
    utterances: Annotated[Path, Arg("utterances.csv (reference speakers, times, words)")],
    pool: Annotated[Path, Arg("candidate_pool.csv (replacement candidates)")],
    condition_space: Annotated[Path, Arg("condition_space.yaml (the ranges)")],
    out_dir: Annotated[Path, Arg("the site's folder (replaced as a whole)")],
    figures: Annotated[tuple[Path, ...], Arg("figures shown on the index")] = (),
    systems: Annotated[
        str, Arg("JSON list of the scored systems' config entries (the results view)")
    ] = "[]",
    evaluations: Annotated[
        tuple[Path, ...], Arg("each system's results/evaluation/<id> folder, in --systems order")
    ] = (),
    probes: Annotated[
        Path | None, Arg("the probe set's probe_summary.json (its quality page, probes.html)")
    ] = None,
    results: Annotated[
        Path | None,
        Arg(
            "results/evaluation: the leaderboard, comparison, Table 2 and by-condition tables (results.html)"
        ),
    ] = None,
    config: ConfigPath = None,
    settings: SettingsJson = None,
    force: Force = False,
) -> None:
    """Write a static site for quality control and for reading systems' errors.

    index.html lists the selection (and the pool) with profiles, features and
    QC status, sortable and filterable, and exports the accepted benchmark.csv
    (for selection.keep) and qc_rejected.tsv (for selection.qc_rejected);
    recordings/<slug>.html has the audio, the speaker timeline synchronised with
    playback, the four MS-Bench checks, the features and ranges, the
    closest-profile candidates, and each system's hypothesis and errors;
    the words of each scored unit coloured by their cpWER or tcpWER class, two
    systems one above the other; results.html (with --results) the leaderboard,
    the comparison, Table 2 and the by-condition tables; probes.html (with
    --probes) every probe item with its clip, and probe_quality.html what
    text-only readers score on the probe set.
    """
    import sys

    from msbench.review.build import load_inputs, write_site

    review = resolve_settings(config, settings)["review"]
    tables = (benchmark, recordings, utterances, pool, condition_space)
    inputs = load_inputs(*tables, figures, json.loads(systems), evaluations, probes, results)
    pages = write_site(out_dir, inputs, review, force)
    print(
        f"[review] {pages} recording pages in {out_dir}; open {out_dir}/index.html", file=sys.stderr
    )
