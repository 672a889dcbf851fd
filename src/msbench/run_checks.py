"""What the workflow says before it runs: a cluster profile still holding its placeholders, and
what a dry run cannot show yet.

* :func:`placeholder_lines`: every ``EDIT-ME`` value of a profile's ``config.yaml``, by line. A
  cluster run (``snakemake --profile slurm``) that would pass one to ``sbatch`` stops before
  submitting anything, naming the file and line (:func:`refuse_placeholders`, the workflow's
  ``onstart``); every run that reads such a profile says so first (a dry run too).
* :func:`undecided_jobs`: the acoustic jobs of a source are sized from its ingested recordings
  (the ``ingest`` checkpoint), so before ingest has run a dry run cannot list them; it says so,
  per source, with the command that shows them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from msbench.errors import ConfigError

PLACEHOLDER = "EDIT-ME"


def placeholder_lines(profile: str | Path) -> list[str]:
    """``slurm/config.yaml:line 11: slurm_partition: "EDIT-ME-partition"`` for each placeholder.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "config.yaml").write_text('a: 1\\nslurm_account: "EDIT-ME-account"\\n')
    >>> [line.split(": ", 1)[1] for line in placeholder_lines(folder)]
    ['line 2: slurm_account: "EDIT-ME-account"']
    """
    config = Path(profile) / "config.yaml"
    if not config.is_file():
        return []
    return [
        f"{config}: line {number}: {line.split('#', 1)[0].strip()}"
        for number, line in enumerate(config.read_text(encoding="utf-8").splitlines(), start=1)
        if PLACEHOLDER in line.split("#", 1)[0]
    ]


def placeholder_values(resource_settings: Any) -> list[str]:
    """The run's default and overwritten resource values that still hold a placeholder."""
    values = []
    for mapping in (resource_settings.default_resources, resource_settings.overwrite_resources):
        for value in (mapping or {}).values():
            values.append(str(getattr(value, "raw", value)))
            if isinstance(value, dict):
                values += [str(v) for v in value.values()]
    return [value for value in values if PLACEHOLDER in value]


def placeholder_message(values: Iterable[str], profiles: Iterable[str | Path]) -> str:
    """What to fix, by file and line where a profile folder holds the placeholder."""
    if not list(values):
        return ""
    where = next((lines for profile in profiles if (lines := placeholder_lines(profile))), [])
    named = "; ".join(where) or f"a resource value holding {PLACEHOLDER!r}"
    return (
        f"the cluster profile still holds its placeholders ({named}): put your partition and "
        "account there (docs/cluster.md), or pass --default-resources slurm_partition=... "
        "slurm_account=..."
    )


def refuse_placeholders(values: Iterable[str], profiles: Iterable[str | Path]) -> None:
    """Stop a cluster run before anything is submitted (the workflow's ``onstart``)."""
    message = placeholder_message(values, profiles)
    if message:
        raise ConfigError(message)


def dry_run_asked(argv: Sequence[str]) -> bool:
    """``-n``, ``--dry-run``/``--dryrun`` or a short-flag group holding ``n`` (``-np``).

    >>> dry_run_asked(["snakemake", "-np"]), dry_run_asked(["snakemake", "--cores", "2"])
    (True, False)
    """
    return any(
        a in ("--dry-run", "--dryrun")
        or (a.startswith("-") and not a.startswith("--") and "n" in a[1:])
        for a in argv[1:]
    )


def undecided_jobs(sources: Iterable[str], results: str | Path = "results") -> str:
    """One line naming the sources whose acoustic jobs are decided only after ingest."""
    waiting = [
        s for s in sources if not (Path(results) / "ingest" / s / "recordings.jsonl").exists()
    ]
    if not waiting:
        return ""
    return (
        f"msbench: the acoustic jobs of {', '.join(waiting)} (how many, and the memory each "
        "asks for) are decided after the ingest checkpoint has read the audio, so this dry run "
        "cannot list them; to see them: snakemake --until ingest --cores 2 (minutes), then this "
        "dry run again"
    )


def refuse_results_file(results: str | Path = "results") -> None:
    """The results folder's path taken by a file: one line, not Snakemake's 45-line traceback."""
    if Path(results).exists() and not Path(results).is_dir():
        raise ConfigError(
            f"{results} is a file, and the workflow writes its results into a folder of that "
            "name: move or rename the file, then run again"
        )
