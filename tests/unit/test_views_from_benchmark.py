"""Leaderboards built from the benchmark (issue 59): every view over the benchmark's recordings,
foreign units named and left out, missing units charged, a folder of another benchmark refused,
a 0.1-layout folder read, a diarization-only system given its DER row, one folder to compare an
error; on real AMI words (the demo's references)."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from msbench.catalog import BENCHMARK, LEADERBOARD, LEADERBOARD_VIEWS, UNIT_SCORES
from msbench.errors import ConfigError, InputError
from msbench.stages import evaluate, leaderboard, simulate
from msbench.tables import read_rows, write_rows
from msbench.textio import written_record_path
from tests.helpers.diagnostics import demo_references, write_inputs, write_similarity

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def scored(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``sim`` (the reference with seeded errors, one unit refused) and ``rttm`` (the
    reference's speaker times, no words), evaluated on the 14-recording benchmark."""
    from msbench.scoring.units import benchmark_units

    tmp = tmp_path_factory.mktemp("views")
    references = demo_references()
    write_inputs(tmp, references)
    write_similarity(tmp / "speaker_similarity.jsonl", {})
    rows = read_rows(BENCHMARK, tmp / "benchmark.csv")
    refused = benchmark_units({"id": "sim"}, rows)[0].unit_id
    entry = {"id": "sim", "simulate": {"seed": 3, "refuse": [refused]}}
    simulate.run(json.dumps(entry), tmp / "benchmark.csv", tmp / "utterances.csv", tmp / "out/sim")
    rttm = tmp / "out" / "rttm"
    rttm.mkdir(parents=True)
    for unit in benchmark_units({"id": "rttm"}, rows):
        (rttm / f"{unit.unit_id}.rttm").write_text("".join(
            f"SPEAKER {unit.unit_id} 1 {s.start_time:.3f} {s.end_time - s.start_time:.3f} "
            f"<NA> <NA> {s.speaker.split('::')[-1]} <NA> <NA>\n"
            for s in references[unit.recording_id]
        ))  # fmt: skip
    for system in ("sim", "rttm"):
        evaluate.run(outputs=tmp / "out" / system, system_id=system, benchmark=tmp / "benchmark.csv",
                     utterances=tmp / "utterances.csv", out_dir=tmp / "evaluation" / system)  # fmt: skip
    return tmp


def _board(tmp: Path, folders: list[Path], benchmark: Path, out: Path) -> tuple[list, dict]:
    leaderboard.run(tuple(folders), benchmark, out, references=tmp / "utterances.csv")
    board = {r["system_id"]: r for r in read_rows(LEADERBOARD, out / LEADERBOARD.name)}
    views = {
        (r["view"], r["system_id"]): r
        for r in read_rows(LEADERBOARD_VIEWS, out / LEADERBOARD_VIEWS.name)
    }
    return board, views  # type: ignore[return-value]


def test_a_diarization_only_system_has_its_der_row(scored: Path, tmp_path: Path):
    units = read_rows(UNIT_SCORES, scored / "evaluation/rttm/unit_scores.csv")
    assert {r["status"] for r in units} == {"scored"} and all(r["cpwer"] is None for r in units)
    folders = [scored / "evaluation/rttm", scored / "evaluation/sim"]
    board, views = _board(scored, folders, scored / "benchmark.csv", tmp_path)
    assert board["rttm"]["der"] == 0.0 and board["rttm"]["cpwer"] is None
    assert views[("release", "rttm")]["der"] == 0.0
    assert "DER only (speaker times, no words): rttm" in (tmp_path / "leaderboard.md").read_text()


def test_a_benchmark_of_one_recording_reports_that_recordings_rates(scored: Path, tmp_path: Path):
    rows = read_rows(BENCHMARK, scored / "benchmark.csv")
    one = tmp_path / "one.csv"
    write_rows(BENCHMARK, one, rows[1:2])
    units = read_rows(UNIT_SCORES, scored / "evaluation/sim/unit_scores.csv")
    mine = [u for u in units if u["recording_id"] == rows[1]["recording_id"]]
    board, views = _board(scored, [scored / "evaluation/sim"], one, tmp_path / "out")
    expected = 100 * sum(u["cp_errors"] for u in mine) / sum(u["cp_length"] for u in mine)
    assert board["sim"]["cpwer"] == pytest.approx(expected, abs=0.01)
    assert board["sim"]["units"] == len(mine)
    view = views[("release", "sim")]
    assert view["cpwer"] == pytest.approx(expected) and view["cpwer_low"] is None  # 1 recording


def _copy(scored: Path, tmp_path: Path, name: str, edit) -> Path:
    folder = tmp_path / name
    shutil.copytree(scored / "evaluation/sim", folder)
    path = folder / "unit_scores.csv"
    with path.open(encoding="utf-8") as table:
        reader = csv.DictReader(table)
        fields, rows = reader.fieldnames, list(reader)
    rows = edit(rows)
    with path.open("w", encoding="utf-8", newline="") as table:
        writer = csv.DictWriter(table, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    written_record_path(path).unlink(missing_ok=True)  # edited: now a hand-made input
    summary = json.loads((folder / "score_summary.json").read_text())
    (folder / "score_summary.json").write_text(json.dumps({**summary, "system_id": name}))
    return folder


def test_foreign_units_are_left_out_and_missing_ones_charged(scored: Path, tmp_path: Path):
    def foreign_and_missing(rows):
        rows[1] = {**rows[1], "recording_id": "other::x", "unit_id": "other__x"}
        return rows[:-1]  # the last benchmark unit: no row

    folder = _copy(scored, tmp_path, "partial", foreign_and_missing)
    board, views = _board(scored, [folder, scored / "evaluation/sim"], scored / "benchmark.csv",
                          tmp_path / "out")  # fmt: skip
    note = (tmp_path / "out" / "leaderboard.md").read_text()
    assert "partial: 1 unit(s) of recordings not in the benchmark left out (other__x)" in note
    assert "partial: 2 benchmark unit(s) missing from its folder" in note
    assert board["partial"]["units"] == 12  # 14 - the foreign one - the missing one
    penalised, release = views[("penalised", "partial")], views[("release", "partial")]
    assert penalised["units_scored"] == 14  # every benchmark unit: the missing ones charged
    assert release["units_scored"] == 12 - release["excluded"]
    assert penalised["cpwer"] > release["cpwer"]


def test_a_folder_of_another_benchmark_is_refused_naming_it(scored: Path, tmp_path: Path):
    def elsewhere(rows):
        return [{**r, "recording_id": "other::" + r["recording_id"]} for r in rows]

    folder = _copy(scored, tmp_path, "elsewhere", elsewhere)
    with pytest.raises(
        InputError, match="none of the 14 units of system 'elsewhere' is a unit of this benchmark"
    ):
        _board(
            scored, [folder, scored / "evaluation/sim"], scored / "benchmark.csv", tmp_path / "o"
        )


def test_a_folder_without_penalty_rows_is_read_and_charged(scored: Path, tmp_path: Path):
    """msbench 0.1 wrote no penalty_scores.csv: the leaderboard scores its excluded unit's
    empty hypothesis itself (the references are given), and stops nothing."""
    folder = _copy(scored, tmp_path, "old", lambda rows: rows)
    (folder / "penalty_scores.csv").unlink()
    board, views = _board(scored, [folder, scored / "evaluation/sim"], scored / "benchmark.csv",
                          tmp_path / "out")  # fmt: skip
    assert views[("penalised", "old")]["cpwer"] == pytest.approx(
        views[("penalised", "sim")]["cpwer"]
    )


def test_one_folder_to_compare_is_a_one_line_error(scored: Path, tmp_path: Path):
    from msbench.stages import compare

    with pytest.raises(ConfigError, match="1 evaluation folder given; a comparison needs two"):
        compare.run((scored / "evaluation/sim",), scored / "benchmark.csv", tmp_path / "c")


def test_a_hallucinating_unit_scores_worse_than_refusing_it_and_is_shown(
    scored: Path, tmp_path: Path
):
    """Issue 59, root 6: the empty hypothesis is not the worst output once insertions pass 100 %:
    the same system refusing that unit has the lower penalised cpWER, and the views name the
    hallucinated unit as the system's worst (what the docs now state)."""
    units = read_rows(UNIT_SCORES, scored / "evaluation/sim/unit_scores.csv")
    target = next(str(u["unit_id"]) for u in units if u["status"] == "scored")

    def hallucinate(rows):
        return [{**r, "cp_errors": str(4 * int(r["cp_length"]))} if r["unit_id"] == target else r
                for r in rows]  # fmt: skip

    def refuse(rows):
        return [{**r, "status": "excluded", "reason": "refused: planted"} if r["unit_id"] == target
                else r for r in rows]  # fmt: skip

    folders = [_copy(scored, tmp_path, "hallucinating", hallucinate),
               _copy(scored, tmp_path, "refusing", refuse)]  # fmt: skip
    _, views = _board(scored, folders, scored / "benchmark.csv", tmp_path / "out")
    said, quiet = views[("penalised", "hallucinating")], views[("penalised", "refusing")]
    assert said["cpwer"] > quiet["cpwer"]
    assert said["worst_unit"] == target and said["worst_unit_rate"] == pytest.approx(400.0)
    page = (tmp_path / "out" / "leaderboard.md").read_text()
    assert f"cpwer 400.00 ({target})" in page and "scores above that" in page


def test_a_diarization_only_system_is_compared_on_der(scored: Path, tmp_path: Path):
    """Issue 59, root 3: the comparison gives the RTTM system its DER pair; its word metrics
    are rows that say they cannot be compared, never a crash or a silent zero."""
    from msbench.catalog import COMPARE_PAIRS
    from msbench.stages import compare

    folders = (scored / "evaluation/rttm", scored / "evaluation/sim")
    compare.run(folders, scored / "benchmark.csv", tmp_path / "c")
    pairs = read_rows(COMPARE_PAIRS, tmp_path / "c" / COMPARE_PAIRS.name)
    overall = {r["metric"]: r for r in pairs if r["group"] == "all"}
    assert overall["der"]["difference"] is not None and overall["der"]["rate_a"] is not None
    assert overall.get("cpwer") is None or overall["cpwer"]["difference"] is None
