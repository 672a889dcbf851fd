"""What msbench evaluate and msbench score say instead of scoring: all units excluded, bad collars."""

from __future__ import annotations

from pathlib import Path

import pytest

from msbench.scoring.units import Unit
from tests.unit.test_scoring import REF


def test_an_evaluation_with_every_unit_excluded_says_so(tmp_path: Path, capsys):
    from msbench.scoring.evaluate import SystemSpec, evaluate_units

    units = [Unit(f"c__s{k}", f"c::s{k}", 0.0, 8.0) for k in range(3)]
    (tmp_path / "sys").mkdir()
    settings = {"collar": 0.25, "tcp_collar": 5.0, "tokenizer": "mixed-v1"}
    rows = evaluate_units(
        SystemSpec("sys", "sys", tmp_path / "sys"), units, {u.recording_id: REF for u in units},
        {u.recording_id: "English" for u in units}, settings,
    ).units  # fmt: skip
    assert {r["status"] for r in rows} == {"excluded"}
    said = capsys.readouterr().err
    assert "every one of its 3 units is excluded (3 missing)" in said and "units.csv" in said


@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_a_collar_that_is_not_a_finite_nonnegative_number_is_refused(tmp_path: Path, value):
    from msbench.cli import main

    (tmp_path / "r.stm").write_text("s 1 A 0.0 2.0 one two\n")
    for option in ("--collar", "--tcp-collar"):
        status = main(["score", "--ref", str(tmp_path / "r.stm"), "--hyp",
                       str(tmp_path / "r.stm"), f"{option}={value}"])  # fmt: skip
        assert status == 2
