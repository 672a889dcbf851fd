"""One unit never sinks a system's evaluation (issue 48, first part): an output with a time that
is not a number, and any exception while scoring one unit, exclude that unit with its reason;
the system's other units are scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msbench.catalog import PENALTY_SCORES, UNIT_SCORES
from msbench.stages import evaluate
from msbench.tables import read_rows
from tests.helpers.diagnostics import demo_references, write_inputs, write_system


@pytest.fixture
def system(tmp_path: Path) -> tuple[Path, list[str]]:
    """The 14 demo references as a SegLST system (an oracle), one file per unit."""
    references = demo_references()
    write_inputs(tmp_path, references)
    write_system(tmp_path / "out", references, lambda rid, utterances: utterances)
    return tmp_path, [rid.replace("::", "__") for rid in references]


def _evaluate(tmp: Path) -> list[dict]:
    evaluate.run(
        outputs=tmp / "out",
        system_id="s",
        benchmark=tmp / "benchmark.csv",
        utterances=tmp / "utterances.csv",
        out_dir=tmp / "eval",
    )
    return read_rows(UNIT_SCORES, tmp / "eval/unit_scores.csv")


def test_a_vibevoice_entry_with_a_nan_time_excludes_only_its_unit(system):
    tmp, units = system
    broken = units[0]
    entry = {"Start time": 0.5, "End time": float("nan"), "Speaker ID": 0, "Content": "hello there"}
    (tmp / "out" / f"{broken}.json").write_text(
        json.dumps([entry])
    )  # json writes NaN, as Python's does
    rows = {r["unit_id"]: r for r in _evaluate(tmp)}
    assert rows[broken]["status"] == "excluded"
    assert "vibevoice output: entry 1 end: nan is not a finite time" in rows[broken]["reason"]
    assert all(rows[u]["status"] == "scored" and rows[u]["cpwer"] == 0.0 for u in units[1:])
    (penalty,) = read_rows(PENALTY_SCORES, tmp / "eval/penalty_scores.csv")
    assert penalty["unit_id"] == broken and penalty["cp_errors"] == penalty["cp_length"]


def test_any_exception_while_scoring_a_unit_excludes_that_unit(system, monkeypatch, capsys):
    """meeteval's 'Too few fallback keys provided!' (60 hypothesis speakers) stands for any
    failure of a metric on one unit."""
    import msbench.scoring.evaluate as evaluation

    tmp, units = system
    real = evaluation.score_session

    def failing(reference, hypothesis, *args, **kwargs):
        if hypothesis and hypothesis[0].session_id == units[3]:
            raise RuntimeError("Too few fallback keys provided!")
        return real(reference, hypothesis, *args, **kwargs)

    monkeypatch.setattr(evaluation, "score_session", failing)
    rows = {r["unit_id"]: r for r in _evaluate(tmp)}
    said = f"not scored: unit {units[3]}: RuntimeError: Too few fallback keys provided!"
    assert rows[units[3]]["status"] == "excluded" and rows[units[3]]["reason"] == said
    assert sum(r["status"] == "scored" for r in rows.values()) == len(units) - 1
    assert said in capsys.readouterr().err
