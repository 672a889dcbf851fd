"""``msbench simulate``: a system made from the reference with known errors (the demo's second
system)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg


def run(
    system: Annotated[str, Arg("the system's entry of the config's systems: list, as JSON")],
    benchmark: Annotated[Path, Arg("benchmark.csv")],
    utterances: Annotated[Path, Arg("utterances.csv (the reference, with words and r_ov)")],
    out_dir: Annotated[
        Path, Arg("folder for <unit_id>.json (SegLST), <unit_id>.refused, simulated.json")
    ],
) -> None:
    """Write the outputs of a system made from the reference with a seeded error process
    (the entry's ``simulate:`` settings; msbench.baseline.simulated states the process).

    simulated.json is written last: the settings and the counts of the errors planted.
    """
    from msbench import catalog
    from msbench.baseline.simulated import DEFAULTS, simulate_system
    from msbench.io.seglst import write as seglst_text
    from msbench.scoring.units import benchmark_units
    from msbench.tables import nonempty, read_rows
    from msbench.textio import write_atomic, write_json

    entry = json.loads(system)
    units = benchmark_units(entry, nonempty(read_rows(catalog.BENCHMARK, benchmark), benchmark))
    settings = {**DEFAULTS, **(entry.get("simulate") or {})}
    outputs, planted = simulate_system(units, read_rows(catalog.UTTERANCES, utterances), settings)
    for unit_id, segments in outputs.items():
        for stale in (out_dir / f"{unit_id}.json", out_dir / f"{unit_id}.refused"):
            stale.unlink(missing_ok=True)  # a unit refused before and not now, or the reverse
        if segments is None:
            write_atomic(
                out_dir / f"{unit_id}.refused",
                "refused by the simulated system (simulate.refuse)\n",
            )
        else:
            write_atomic(out_dir / f"{unit_id}.json", seglst_text(segments))
    write_json(
        out_dir / "simulated.json",
        {"system_id": entry["id"], "settings": settings, "planted": planted},
    )
