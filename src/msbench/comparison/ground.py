"""The leaderboard's three views, each named in every table, page and JSON that shows it.

* ``release``: each system on the units it scored, ``excluded`` beside it (MS-Bench's Table 1
  and the release's ``leaderboard.json``): a system that refuses a hard unit is not charged
  for it;
* ``common``: every system on the units that **all** configured systems scored;
* ``penalised``: every system on every unit, an excluded unit counted as the worst case: the
  counts of an **empty hypothesis** on it (every reference word deleted, all reference speech
  missed; with no hypothesised segment near them the diagnosis calls those deletions
  segmentation deletions, so E_seg carries the penalty and E_lex and E_attr do not move).
  ``msbench evaluate`` scores the empty hypothesis of each excluded unit into
  ``penalty_scores.csv``.

Every view is computed over the **benchmark's** recordings (:func:`on_benchmark`): a folder's
units of recordings the benchmark lacks are left out (named in the note), and a benchmark
recording a folder has no row for is ``missing``: not in its ``release`` sums (named in the
note, apart from ``excluded``) and charged as an empty hypothesis in ``penalised`` where the
references are given. Refusing a unit can lower a system's ``release`` rates, never its
``common`` ones (the unit leaves every system's sums); in ``penalised`` it is charged the
empty hypothesis, which is the worst output only while rates stay at or below 100 %: an output
that inserts more than the reference holds scores worse than the empty one, so refusing it
lowers the penalised rate (``docs/concepts/comparison.md`` shows each system's worst unit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from msbench.errors import InputError

Row = Mapping[str, Any]
VIEWS = ("release", "common", "penalised")


@dataclass(frozen=True)
class SystemUnits:
    """One system's unit rows, the empty-hypothesis rows of its excluded (and missing) units,
    the benchmark's units it has no row for, and what reading it changed (``notes``)."""

    system_id: str
    name: str
    units: Sequence[Row]
    penalties: Mapping[str, Row] = field(default_factory=dict)
    missing: Sequence[str] = ()
    notes: Sequence[str] = ()

    @property
    def scored(self) -> set[str]:
        return {str(r["unit_id"]) for r in self.units if r["status"] != "excluded"}

    @property
    def excluded(self) -> list[str]:
        return [str(r["unit_id"]) for r in self.units if r["status"] == "excluded"]


def read_system(folder: Path) -> SystemUnits:
    """A system's evaluation folder: unit_scores.csv, score_summary.json and, when a unit was
    excluded, penalty_scores.csv (a folder of msbench 0.1, which never wrote it, is read with a
    note: :func:`on_benchmark` scores its penalties where the references are given)."""
    from msbench.catalog import PENALTY_SCORES, SCORE_SUMMARY, UNIT_SCORES, system_file
    from msbench.tables import read_rows
    from msbench.textio import read_json

    summary = read_json(system_file(folder, SCORE_SUMMARY))
    units = read_rows(UNIT_SCORES, system_file(folder, UNIT_SCORES.name))
    system = SystemUnits(str(summary["system_id"]), str(summary["system"]), units)
    path = folder / PENALTY_SCORES.name
    if not system.excluded or not path.exists():
        return system
    penalties = {str(r["unit_id"]): r for r in read_rows(PENALTY_SCORES, path)}
    return replace(system, penalties=penalties)


def on_benchmark(
    system: SystemUnits,
    folder: Path,
    benchmark: Sequence[Row],
    references: Mapping[str, Sequence[Any]] | None = None,
    scoring: Mapping[str, Any] | None = None,
) -> SystemUnits:
    """``system`` restricted to the benchmark's recordings (module docstring): foreign units
    left out and named, benchmark recordings without a row ``missing``, and the empty
    hypothesis of every excluded or missing unit scored where ``references`` are given and its
    folder has no penalty row; a folder with no unit of the benchmark is refused."""
    kept, notes = _benchmark_rows(system, folder, benchmark)
    charge = None
    if references is not None and scoring is not None:
        charge = {"references": references, "scoring": scoring}
    penalties = dict(system.penalties)
    missing = _missing_units(system, kept, benchmark, penalties, charge, notes)
    lacking = [str(r["unit_id"]) for r in kept if r["status"] == "excluded"]
    lacking = [u for u in lacking if u not in penalties]
    if charge is not None:
        for unit in _units_of(system, [r for r in kept if str(r["unit_id"]) in lacking], benchmark):
            penalties[unit.unit_id] = _penalty(system, unit, "excluded", **charge)
        lacking = []
    if lacking:
        notes.append(
            f"{system.system_id}: no penalty rows for {len(lacking)} excluded unit(s) "
            "(a folder of msbench 0.1; give --references to score them): left out of "
            "its penalised view"
        )
    return replace(system, units=kept, penalties=penalties, missing=missing, notes=notes)


def _benchmark_rows(
    system: SystemUnits, folder: Path, benchmark: Sequence[Row]
) -> tuple[list[Row], list[str]]:
    """The system's rows of the benchmark's recordings, and a note naming the others; a folder
    with none is refused, naming it."""
    wanted = {str(r["recording_id"]) for r in benchmark}
    kept = [r for r in system.units if str(r["recording_id"]) in wanted]
    foreign = sorted({str(r["unit_id"]) for r in system.units} - {str(r["unit_id"]) for r in kept})
    if not kept:
        raise InputError(
            str(folder),
            f"none of the {len(system.units)} units of system {system.system_id!r} is a unit of "
            f"this benchmark's {len(wanted)} recordings (it holds {_shown(foreign)})",
            fix="give the evaluation folder of a system scored on this benchmark",
        )
    notes = []
    if foreign:
        notes.append(
            f"{system.system_id}: {len(foreign)} unit(s) of recordings not in the "
            f"benchmark left out ({_shown(foreign)})"
        )
    return kept, notes


def _missing_units(
    system: SystemUnits,
    kept: Sequence[Row],
    benchmark: Sequence[Row],
    penalties: dict[str, Row],
    charge: Mapping[str, Any] | None,
    notes: list[str],
) -> list[str]:
    """The benchmark's units of recordings the folder has no row for, each charged into
    ``penalties`` where ``charge`` (the references and scoring settings) is given; said in
    ``notes``."""
    from msbench.scoring.units import benchmark_units

    have = {str(r["recording_id"]) for r in kept}
    rows = [r for r in benchmark if str(r["recording_id"]) not in have]
    units = benchmark_units({"id": system.system_id}, rows)  # type: ignore[arg-type]
    for unit in units:
        if charge is not None:
            penalties[unit.unit_id] = _penalty(system, unit, "missing", **charge)
    missing = [u.unit_id for u in units]
    if missing:
        charged = (
            "charged as empty hypotheses in the penalised view"
            if charge is not None
            else "not charged (no references given: --references)"
        )
        notes.append(
            f"{system.system_id}: {len(missing)} benchmark unit(s) missing from its "
            f"folder ({_shown(missing)}), {charged}"
        )
    return missing


def _shown(names: Sequence[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _units_of(system: SystemUnits, rows: Sequence[Row], benchmark: Sequence[Row]) -> list[Any]:
    """The units of ``rows`` (their ids, recordings and spans)."""
    from msbench.scoring.units import Unit, benchmark_units

    whole = {
        u.unit_id: u
        for u in benchmark_units({"id": system.system_id}, benchmark)  # type: ignore[arg-type]
    }
    found = []
    for r in rows:
        unit_id = str(r["unit_id"])
        found.append(
            whole.get(unit_id)
            or Unit(unit_id, str(r["recording_id"]), float(r["start"]), float(r["end"]))
        )
    return found


def _penalty(
    system: SystemUnits,
    unit: Any,
    why: str,
    references: Mapping[str, Sequence[Any]],
    scoring: Mapping[str, Any],
) -> Row:
    from msbench.scoring.evaluate import penalty_row
    from msbench.scoring.units import unit_reference

    reference = unit_reference(list(references.get(unit.recording_id, [])), unit)
    return penalty_row(system.system_id, unit, reference, why, scoring)


def common_units(systems: Sequence[SystemUnits]) -> set[str]:
    """The units every system scored."""
    sets = [s.scored for s in systems]
    return set.intersection(*sets) if sets else set()


def view_rows(system: SystemUnits, view: str, common: set[str]) -> list[Row]:
    """The unit rows a view sums for a system (excluded rows stay in ``release``: they are
    counted there, not scored)."""
    if view == "release":
        return list(system.units)
    if view == "common":
        return [r for r in system.units if str(r["unit_id"]) in common]
    charged = [
        {**system.penalties[str(r["unit_id"])], "status": "penalised"}
        if r["status"] == "excluded"
        else r
        for r in system.units
        if r["status"] != "excluded" or str(r["unit_id"]) in system.penalties
    ]
    return charged + [
        {**system.penalties[u], "status": "penalised"}
        for u in system.missing
        if u in system.penalties
    ]


def differing_note(systems: Sequence[SystemUnits]) -> str | None:
    """One line when the systems' scored units differ: how many, and whose.

    >>> a = SystemUnits("a", "A", [{"unit_id": "u1", "status": "scored"},
    ...                            {"unit_id": "u2", "status": "scored"}])
    >>> b = SystemUnits("b", "B", [{"unit_id": "u1", "status": "scored"},
    ...                            {"unit_id": "u2", "status": "excluded"}])
    >>> print(differing_note([a, b]))
    the systems scored different units: 1 of 2 units is not scored by every system (b excluded 1: u2); the common view compares all systems on the 1 units every one scored
    """
    read = [note for s in systems for note in s.notes]
    differ_line = _differing(systems)
    lines = read + ([differ_line] if differ_line else [])
    return "; ".join(lines) if lines else None


def _differing(systems: Sequence[SystemUnits]) -> str | None:
    if len(systems) < 2:
        return None
    every = set().union(*({str(r["unit_id"]) for r in s.units} for s in systems))
    common = common_units(systems)
    differ = sorted(every - common)
    if not differ:
        return None
    whose = []
    for s in systems:
        missing = [u for u in differ if u not in s.scored]
        if missing:
            shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
            whose.append(f"{s.system_id} excluded {len(missing)}: {shown}")
    verb = "is" if len(differ) == 1 else "are"
    return (
        f"the systems scored different units: {len(differ)} of {len(every)} units {verb} not "
        f"scored by every system ({'; '.join(whose)}); the common view compares all systems "
        f"on the {len(common)} units every one scored"
    )
