"""The typed rows between stages are the manifests' columns, with their types (msbench.rows)."""

from __future__ import annotations

from pathlib import Path

import pytest

from msbench import columns
from msbench.catalog import BENCHMARK, UNITS
from msbench.errors import InputError
from msbench.rows import BenchmarkRow, RecordingRow, UnitRow, UtteranceRow, columns_of, types_of
from msbench.tables import read_rows, write_rows


def test_each_row_type_is_its_manifest():
    assert columns_of(BenchmarkRow) == columns.BENCHMARK_COLUMNS
    assert columns_of(UnitRow) == columns.UNIT_COLUMNS
    assert columns_of(UtteranceRow) == columns.UTTERANCE_COLUMNS
    assert set(columns_of(RecordingRow)) <= set(
        columns.recordings_columns([*columns.INTERACTION_COLUMNS, "eligible", "selected"])
    )
    for row_type in (BenchmarkRow, UnitRow, UtteranceRow, RecordingRow):
        for name, kind in types_of(row_type).items():  # one type per column name, everywhere
            assert columns.COLUMN_TYPES.get(name, "str") == kind, (row_type.__name__, name)


def test_typed_reading_keeps_ids_text_and_names_what_is_missing(tmp_path: Path):
    path = tmp_path / "units.csv"
    write_rows(UNITS, path, [{"unit_id": "001", "recording_id": "a::001", "start": 0, "end": 1.5}])
    (row,) = read_rows(UNITS, path)
    assert row == {"unit_id": "001", "recording_id": "a::001", "start": 0.0, "end": 1.5}
    mine = tmp_path / "my_units.csv"  # a user's own table (msbench wrote none there)
    mine.write_text("unit_id,recording_id,start\nu,a::b,0\n")
    with pytest.raises(
        InputError,
        match=r"units.csv:line 1: is not units.csv as msbench units writes it: lacks end",
    ):
        read_rows(UNITS, mine)
    mine.write_text('recording_id,duration_seconds,scored_spans\na::b,30.0,"[[1.0, 2.5]]"\n')
    (benchmark,) = read_rows(BENCHMARK, mine)  # a kept benchmark.csv needs only these two
    assert benchmark["scored_spans"] == [[1.0, 2.5]] and benchmark.get("P") is None
