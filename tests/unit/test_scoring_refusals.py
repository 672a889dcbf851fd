"""What msbench evaluate and msbench score say instead of scoring: all units excluded, bad collars."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msbench.scoring.units import Unit
from tests.unit.test_scoring import REF

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core


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
    assert "every one of its 3 units is excluded (3 missing)" in said and "unit_scores.csv" in said


@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_a_collar_that_is_not_a_finite_nonnegative_number_is_refused(tmp_path: Path, value):
    from msbench.cli import main

    (tmp_path / "r.stm").write_text("s 1 A 0.0 2.0 one two\n")
    for option in ("--collar", "--tcp-collar"):
        status = main(["score", "--ref", str(tmp_path / "r.stm"), "--hyp",
                       str(tmp_path / "r.stm"), f"{option}={value}"])  # fmt: skip
        assert status == 2


def test_a_runaway_output_is_excluded_with_its_size_before_any_alignment(tmp_path: Path):
    """A looping decoder's 3.5 MB for one minute (500,000 words): excluded in well under a
    second with its size said, never hours of alignment; the other units are scored."""
    import time

    from msbench.records import Segment
    from msbench.scoring.evaluate import SystemSpec, evaluate_units

    units = [Unit("c__long", "c::long", 0.0, 60.0), Unit("c__fine", "c::fine", 0.0, 60.0)]
    (tmp_path / "sys").mkdir()
    loop = [Segment("c__long", 0.0, 60.0, "A", " ".join(["thank you"] * 250_000))]
    sane = [Segment("c__fine", s.start_time, s.end_time, s.speaker, s.words) for s in REF]
    for unit, segments in zip(units, (loop, sane), strict=True):
        text = json.dumps([s.to_seglst() for s in segments])
        (tmp_path / "sys" / f"{unit.unit_id}.json").write_text(text)
    settings = {"collar": 0.25, "tcp_collar": 5.0, "tokenizer": "mixed-v1"}
    started = time.perf_counter()
    rows = evaluate_units(
        SystemSpec("sys", "sys", tmp_path / "sys"), units, {u.recording_id: REF for u in units},
        {u.recording_id: "English" for u in units}, settings,
    ).units  # fmt: skip
    assert time.perf_counter() - started < 60
    by_unit = {r["unit_id"]: r for r in rows}
    assert by_unit["c__long"]["status"] == "excluded"
    assert by_unit["c__long"]["reason"].startswith("runaway: 500000 tokens for 60.0 s of audio")
    assert by_unit["c__fine"]["status"] in ("scored", "degraded")


def test_a_units_manifest_that_repeats_a_unit_id_is_refused(tmp_path: Path):
    from msbench.errors import InputError
    from msbench.scoring.units import read_units

    (tmp_path / "units.csv").write_text(
        "unit_id,recording_id,start,end\nx__s1,x::s1,0,5\nx__s1,x__y::s1,0,5\n"
    )
    with pytest.raises(InputError, match=r"unit id\(s\) \['x__s1'\] appear more than once"):
        read_units(tmp_path / "units.csv")
