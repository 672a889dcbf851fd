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

Refusing a unit can lower a system's ``release`` rates, never its ``common`` ones (the unit
leaves every system's sums) nor its ``penalised`` ones (no output scores worse than the empty
one on DER and the WER family).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msbench.errors import InputError

Row = Mapping[str, Any]
VIEWS = ("release", "common", "penalised")


@dataclass(frozen=True)
class SystemUnits:
    """One system's unit rows, and the empty-hypothesis rows of its excluded units."""

    system_id: str
    name: str
    units: Sequence[Row]
    penalties: Mapping[str, Row] = field(default_factory=dict)

    @property
    def scored(self) -> set[str]:
        return {str(r["unit_id"]) for r in self.units if r["status"] != "excluded"}

    @property
    def excluded(self) -> list[str]:
        return [str(r["unit_id"]) for r in self.units if r["status"] == "excluded"]


def read_system(folder: Path) -> SystemUnits:
    """A system's evaluation folder: unit_scores.csv, score_summary.json and, when a unit was
    excluded, penalty_scores.csv (an error naming the fix when it is missing)."""
    from msbench.catalog import PENALTY_SCORES, SCORE_SUMMARY, UNIT_SCORES, system_file
    from msbench.tables import read_rows
    from msbench.textio import read_json

    summary = read_json(system_file(folder, SCORE_SUMMARY))
    units = read_rows(UNIT_SCORES, system_file(folder, UNIT_SCORES.name))
    system = SystemUnits(str(summary["system_id"]), str(summary["system"]), units)
    if not system.excluded:
        return system
    path = folder / PENALTY_SCORES.name
    if not path.exists():
        raise InputError(
            str(path),
            "missing: the penalised view needs the empty-hypothesis scores of the excluded "
            "units; rerun `msbench evaluate` for this system (msbench >= 0.3 writes them)",
        )
    penalties = {str(r["unit_id"]): r for r in read_rows(PENALTY_SCORES, path)}
    lacking = sorted(set(system.excluded) - set(penalties))
    if lacking:
        raise InputError(str(path), f"holds no row for excluded unit(s) {', '.join(lacking)}")
    return SystemUnits(system.system_id, system.name, units, penalties)


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
    return [
        {**system.penalties[str(r["unit_id"])], "status": "penalised"}
        if r["status"] == "excluded"
        else r
        for r in system.units
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
