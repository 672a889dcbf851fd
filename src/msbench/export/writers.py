"""Every export format by name, and one call that writes the chosen ones and the ledger."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from msbench.export.bundle import Bundle
from msbench.export.hf_export import export_hf
from msbench.export.ids import id_changes, refuse_missing_audio
from msbench.export.kaldi_export import export_kaldi
from msbench.export.ledger import ledger
from msbench.export.lhotse_export import export_lhotse
from msbench.export.seglst_export import export_seglst
from msbench.output_folders import MARKER, claim_folder, write_marker
from msbench.scoring.tokenizer import DEFAULT_TOKENIZER
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
    tokenizer: str = DEFAULT_TOKENIZER,
    include_restricted: bool = False,
    force: bool = False,
) -> dict[str, list[Path]]:
    """Write each format of ``formats`` under ``out/<format>`` and ``out/README.md`` (the
    loaders and the licence ledger); returns the files of each format. ``out`` must be new,
    empty or an earlier export (:mod:`msbench.output_folders`; ``force``: what else it holds
    is deleted, named)."""
    writers: dict[str, Callable[[Bundle, Path], list[Path]]] = {
        "lhotse": export_lhotse,
        "hf": partial(
            export_hf, probes=probes, coverage=coverage, include_restricted=include_restricted
        ),
        "kaldi": export_kaldi,
        "seglst": partial(export_seglst, systems=systems, tokenizer=tokenizer),
    }
    refuse_missing_audio(bundle, formats)  # before anything is written
    claim_folder(out, "--out", force)  # a user's files are never deleted
    changes = id_changes(bundle)
    staging = out.parent / f".{out.name}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    written = {name: writers[name](bundle, staging / name) for name in formats}
    write_atomic(staging / "README.md", ledger(bundle, formats, changes))
    write_marker(staging, "msbench export")
    replaced = swap_into(staging, out)
    if replaced:
        print(
            f"msbench export: {out} held an earlier export ({len(replaced)} entries): replaced "
            "by this one",
            file=sys.stderr,
        )
    if changes:
        print(
            f"msbench export: {len(changes)} id(s) hold whitespace, exported with '_' "
            f"(listed in {out / 'README.md'}): "
            + ", ".join(f"{a!r} -> {b!r}" for a, b in list(changes.items())[:5]),
            file=sys.stderr,
        )
    return {name: [out / p.relative_to(staging) for p in paths] for name, paths in written.items()}


def swap_into(staging: Path, out: Path) -> list[str]:
    """``staging`` becomes ``out`` (two renames: a reader never sees a half-written export);
    an earlier export there is replaced whole. Returns what the earlier folder held."""
    held = sorted(p.name for p in out.iterdir() if p.name != MARKER) if out.is_dir() else []
    old = out.parent / f".{out.name}.replaced"
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    staging.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return held
