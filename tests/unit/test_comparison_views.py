"""The leaderboard's views and the compare stage on real AMI words: refusing a unit improves
only the release view; the penalised view charges the empty hypothesis; outputs repeat byte
for byte."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msbench.catalog import COMPARE_PAIRS, LEADERBOARD_VIEWS, PENALTY_SCORES, UNIT_SCORES
from msbench.stages import compare, evaluate, leaderboard, simulate
from msbench.tables import read_rows
from tests.helpers.diagnostics import demo_references, write_inputs, write_similarity

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core

ERRORS = {"seed": 4, "deletion": 0.1, "substitution": 0.1, "speaker_error": 0.1}


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def two_systems(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """System ``full`` (the reference with errors) and ``refuser``: the same outputs, with the
    unit ``full`` scores worst on cpWER refused."""
    tmp = tmp_path_factory.mktemp("views")
    write_inputs(tmp, demo_references())
    write_similarity(tmp / "speaker_similarity.jsonl", {})
    entry = {"id": "full", "simulate": ERRORS}
    simulate.run(json.dumps(entry), tmp / "benchmark.csv", tmp / "utterances.csv", tmp / "out/full")
    _evaluate(tmp, "full")
    rows = read_rows(UNIT_SCORES, tmp / "evaluation/full/unit_scores.csv")
    worst = max(rows, key=lambda r: r["cpwer"])["unit_id"]
    entry = {"id": "refuser", "simulate": {**ERRORS, "refuse": [worst]}}
    simulate.run(
        json.dumps(entry), tmp / "benchmark.csv", tmp / "utterances.csv", tmp / "out/refuser"
    )
    _evaluate(tmp, "refuser")
    (tmp / "worst").write_text(worst)
    return tmp


def _evaluate(tmp: Path, system: str) -> None:
    evaluate.run(
        outputs=tmp / "out" / system,
        system_id=system,
        benchmark=tmp / "benchmark.csv",
        utterances=tmp / "utterances.csv",
        out_dir=tmp / "evaluation" / system,
    )


def _board(tmp: Path, out: Path) -> dict[tuple[str, str], dict]:
    folders = (tmp / "evaluation/full", tmp / "evaluation/refuser")
    compare.run(folders, tmp / "benchmark.csv", out / "compare")
    leaderboard.run(folders, tmp / "benchmark.csv", out, comparison=out / "compare/pairs.csv")
    return {
        (r["view"], r["system_id"]): r
        for r in read_rows(LEADERBOARD_VIEWS, out / LEADERBOARD_VIEWS.name)
    }


def test_an_excluded_unit_is_charged_as_an_empty_hypothesis(two_systems: Path):
    worst = (two_systems / "worst").read_text()
    (penalty,) = read_rows(PENALTY_SCORES, two_systems / "evaluation/refuser/penalty_scores.csv")
    assert penalty["unit_id"] == worst and penalty["status"] == "excluded"
    for family in ("cp", "tcp", "wer"):
        assert (
            penalty[f"{family}_errors"]
            == penalty[f"{family}_deletions"]
            == penalty[f"{family}_length"]
            > 0
        )
    assert penalty["der_missed"] == penalty["der_scored"] > 0
    assert penalty["der_false_alarm"] == penalty["der_confusion"] == 0
    assert penalty["d_seg"] == penalty["n_ref"] and penalty["i_lex"] == penalty["s"] == 0
    assert read_rows(PENALTY_SCORES, two_systems / "evaluation/full/penalty_scores.csv") == []


def test_refusing_a_unit_improves_only_the_release_view(two_systems: Path, tmp_path: Path, capsys):
    board = _board(two_systems, tmp_path)
    for metric in ("der", "cpwer", "tcpwer", "wer"):
        release = board["release", "refuser"][metric], board["release", "full"][metric]
        assert release[0] < release[1], metric  # the headline rewards the refusal ...
        assert (
            board["common", "refuser"][metric] == board["common", "full"][metric]
        )  # ... these do not
        assert board["penalised", "refuser"][metric] >= board["penalised", "full"][metric], metric
        assert board["penalised", "full"][metric] == board["release", "full"][metric]
    assert (
        board["common", "full"]["units_scored"] == 13
        and board["release", "full"]["units_scored"] == 14
    )
    for row in board.values():
        assert row["cpwer_low"] <= row["cpwer"] <= row["cpwer_high"]
    note = "1 of 14 units is not scored by every system (refuser excluded 1"
    assert note in capsys.readouterr().out
    assert note in (tmp_path / "leaderboard.md").read_text()
    pairs = read_rows(COMPARE_PAIRS, tmp_path / "compare/pairs.csv")
    (cp,) = (r for r in pairs if r["metric"] == "cpwer" and r["group"] == "all")
    assert (cp["system_a"], cp["system_b"], cp["units"], cp["difference"]) == (
        "full",
        "refuser",
        13,
        0.0,
    )
    assert cp["p_value"] == 1.0 and not cp["significant"]  # the same outputs: no difference at all
    assert {r["rank_group"] for r in board.values()} == {"a"}


def test_the_comparison_is_byte_identical_across_runs(two_systems: Path, tmp_path: Path):
    _board(two_systems, tmp_path / "one")
    _board(two_systems, tmp_path / "two")
    for name in ("pairs.csv", "table2_pairs.csv", "compare.md", "compare.json", "compare.png"):
        assert (tmp_path / "one/compare" / name).read_bytes() == (
            tmp_path / "two/compare" / name
        ).read_bytes(), name
    for name in ("leaderboard_views.csv", "leaderboard_views.json", "leaderboard.md"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes(), (
            name
        )
