"""Every export format by name, and one call that writes the chosen ones and the ledger."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from msbench.export.bundle import Bundle
from msbench.export.hf_export import export_hf
from msbench.export.kaldi_export import export_kaldi
from msbench.export.ledger import ledger
from msbench.export.lhotse_export import export_lhotse
from msbench.export.seglst_export import export_seglst
from msbench.textio import write_atomic

#: The formats ``msbench export --to`` and the config's ``export.formats`` accept.
EXPORTS = ("lhotse", "hf", "kaldi", "seglst")


def write_exports(
    bundle: Bundle,
    formats: Sequence[str],
    out: Path,
    *,
    probes: Path | None = None,
    coverage: Path | None = None,
    systems: Sequence[Mapping[str, Any]] = (),
    tokenizer: str = "mixed-v1",
    include_restricted: bool = False,
) -> dict[str, list[Path]]:
    """Write each format of ``formats`` under ``out/<format>`` and ``out/README.md`` (the
    loaders and the licence ledger); returns the files of each format."""
    writers: dict[str, Callable[[Bundle, Path], list[Path]]] = {
        "lhotse": export_lhotse,
        "hf": partial(
            export_hf, probes=probes, coverage=coverage, include_restricted=include_restricted
        ),
        "kaldi": export_kaldi,
        "seglst": partial(export_seglst, systems=systems, tokenizer=tokenizer),
    }
    written = {name: writers[name](bundle, out / name) for name in formats}
    write_atomic(out / "README.md", ledger(bundle, formats))
    return written
