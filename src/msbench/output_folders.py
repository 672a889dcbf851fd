"""An output folder msbench replaces whole is msbench's: a user's files are never deleted.

``msbench export --out``, ``msbench review --out`` and ``msbench probes --out`` write a whole
folder and swap it in (a reader sees the old one or the new one). Before this, whatever the
folder held went with it: ``--out results`` (a slip for ``results/export``) deleted the run's
manifests and audio. Now each such folder carries a marker, :data:`MARKER`, listing the files
msbench wrote there, and a folder is replaced only when it does not exist, is empty, or holds
nothing but what its marker lists (an earlier msbench output). Anything else (a user's file, a
file of a subfolder msbench did not write, a path that is a file) is refused in one line that
names what is there, before anything is written; ``--force`` deletes it, naming it.

An output from before the marker (msbench 0.2) is refused like a user's folder (``--force``
replaces it). Inside the workflow Snakemake removes a rule's output folder before the rule
runs, so its rules never meet this.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

from msbench.errors import InputError

#: The marker of a folder msbench wrote: ``{"written_by": ..., "files": [relative paths]}``.
MARKER = ".msbench-output.json"
SHOWN = 5


def files_under(folder: Path) -> list[str]:
    """Every file under ``folder`` (relative POSIX paths, sorted), the marker left out."""
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if not p.is_dir() and p.name != MARKER
    )


def write_marker(folder: Path, written_by: str) -> None:
    """Mark ``folder`` as msbench's, listing every file now in it."""
    record = {"written_by": written_by, "files": files_under(folder)}
    (folder / MARKER).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def foreign_files(folder: Path) -> list[str]:
    """What ``folder`` holds that msbench did not write there (its marker's list), or the path
    itself when it is a file; [] for a folder that does not exist or is empty."""
    if not folder.exists():
        return []
    if not folder.is_dir():
        return [folder.name]
    present = files_under(folder)
    marker = folder / MARKER
    if not marker.exists():
        return present
    try:
        known = set(json.loads(marker.read_text(encoding="utf-8")).get("files", []))
    except (json.JSONDecodeError, OSError, AttributeError):
        return present
    return [name for name in present if name not in known]


def claim_folder(folder: Path, option: str | None = "--out", force: bool = False) -> None:
    """Refuse (or with ``force`` delete, naming them) what ``folder`` holds that msbench did not
    write, before anything is written there. ``option`` None: a subfolder msbench names itself
    (evaluate's ``alignments/``), replaced whatever it holds, without a word."""
    if option is None:
        return
    foreign = foreign_files(folder)
    if not foreign:
        return
    shown = ", ".join(foreign[:SHOWN]) + (
        f" and {len(foreign) - SHOWN} more" if len(foreign) > SHOWN else ""
    )
    what = (
        "is a file"
        if not folder.is_dir()
        else f"holds {len(foreign)} file(s) msbench did not write there ({shown})"
    )
    if not force:
        raise InputError(
            folder,
            f"{what}: msbench replaces its {option} folder whole, so it would delete them; "
            "nothing was changed",
            fix=f"give {option} a new folder (or an earlier msbench output), or add --force to "
            f"delete {'it' if not folder.is_dir() else 'them'}",
        )
    print(f"msbench: --force: deleting what {folder} held ({shown})", file=sys.stderr)
    if not folder.is_dir():
        folder.unlink()
    else:
        shutil.rmtree(folder)
