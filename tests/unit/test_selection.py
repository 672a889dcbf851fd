"""The integer program: a hand-solved toy pool, conflicts explained, both solvers agree."""

from __future__ import annotations

import pytest

from msbench.config import default_config
from msbench.construction.condition_space import build_condition_space
from msbench.construction.selection import SelectionInfeasible, build_problem
from msbench.construction.selection import solve_selection as solve_problem

SPACE = build_condition_space(default_config()["condition_space"])


def solve_selection(pool, utilities, space, settings, keep=(), replacement_groups=()):
    """Solve and report the chosen recording ids (sorted) instead of indices."""
    problem = build_problem(pool, utilities, space, settings, keep, replacement_groups)
    result = solve_problem(problem, settings)
    result.selected = sorted(pool[i]["recording_id"] for i in result.selected)
    return result


COMMON = {"O": "O1", "S": "S1", "T": "T1", "N": "N1"}


def candidate(rid: str, p: str, hours: float, source: str = "a") -> dict:
    conditions = {"P": p, **COMMON}
    return {
        "recording_id": rid,
        "source_dataset": source,
        "language": "English",
        "scenario": "Meeting",
        "duration_seconds": hours * 3600,
        "conditions": conditions,
        "profile": "-".join(conditions[a] for a in "POSTN"),
    }


# a and b cover P0, c and d cover P1. Best without coverage: {a, b} (U 1.4, 0.9 h);
# with one recording per range and at most 1 h: {a, d} (U 1.2, 0.8 h) by enumeration.
TOY = [
    candidate("a", "P0", 0.5),
    candidate("b", "P0", 0.4),
    candidate("c", "P1", 0.6),
    candidate("d", "P1", 0.3),
]
TOY_UTILITY = [0.9, 0.5, 0.2, 0.3]


def settings(**overrides) -> dict:
    base = {
        **default_config()["selection"],
        "min_hours": 0.0,
        "max_hours": 1.0,
        "min_count_per_range": 1,
        "min_hours_per_range": 0.0,
        "max_source_share": 1.0,
    }
    return {**base, **overrides}


@pytest.mark.parametrize("solver", ["cbc", "highs"])
def test_toy_pool_optimum_known_by_hand(solver: str):
    result = solve_selection(TOY, TOY_UTILITY, SPACE, settings(solver=solver))
    assert result.selected == ["a", "d"]
    assert result.report["objective"] == pytest.approx(1.2)
    assert result.report["gap_proven_within_target"] is True
    slack = {c["name"]: c["slack"] for c in result.report["constraints"]}
    assert slack["total_hours_max"] == pytest.approx(0.2)
    assert slack["count_P0"] == 0 and slack["count_P1"] == 0


def test_without_coverage_the_best_pair_wins():
    result = solve_selection(TOY, TOY_UTILITY, SPACE, settings(min_count_per_range=0))
    assert result.selected == ["a", "b"]


def test_kept_recording_is_forced():
    result = solve_selection(TOY, TOY_UTILITY, SPACE, settings(), keep=["c"])
    assert "c" in result.selected and result.selected == ["b", "c"]


def test_conflicting_constraints_are_named_with_amounts():
    with pytest.raises(SelectionInfeasible) as caught:
        solve_selection(TOY, TOY_UTILITY, SPACE, settings(min_hours=3.0, max_hours=4.0))
    violations = {v["constraint"]: v for v in caught.value.violations}
    # the pool holds 1.8 h in all: the minimum is 1.2 h out of reach
    assert violations["total_hours_min"]["violation"] == pytest.approx(1.2)
    assert "total_hours_min short by 1.2 h" in str(caught.value)
    assert "infeasible" not in str(caught.value).lower() or "relax" in str(caught.value).lower()


def test_source_share_conflict_is_explained():
    pool = [
        candidate("a", "P0", 0.5, "big"),
        candidate("b", "P1", 0.5, "big"),
        candidate("c", "P1", 0.1, "small"),
    ]
    with pytest.raises(SelectionInfeasible) as caught:
        solve_selection(
            pool, [1, 1, 1], SPACE, settings(min_hours=1.0, max_hours=2.0, max_source_share=0.5)
        )
    names = {v["constraint"] for v in caught.value.violations}
    assert names & {"source_share_big", "total_hours_min"}


def test_minimum_per_language_is_enforced():
    pool = [
        dict(candidate("a", "P0", 0.5)),
        dict(candidate("d", "P1", 0.3)),
        dict(candidate("z", "P1", 0.2)),
    ]
    pool[2]["language"] = "Chinese"
    free = solve_selection(pool, [0.9, 0.3, 0.1], SPACE, settings(max_hours=0.8))
    assert free.selected == ["a", "d"]
    forced = solve_selection(
        pool, [0.9, 0.3, 0.1], SPACE, settings(max_hours=0.8, min_per_language={"Chinese": 1})
    )
    assert forced.selected == ["a", "z"]
    assert any(c["name"] == "language_Chinese" for c in forced.report["constraints"])


def test_an_upper_bound_is_exceeded_not_short():
    # every range wants one recording: a (0.5 h, P0) and c or d (P1) make at least 0.8 h > 0.6 h
    with pytest.raises(SelectionInfeasible) as caught:
        solve_selection(TOY, TOY_UTILITY, SPACE, settings(min_hours=0.0, max_hours=0.6))
    message = str(caught.value)
    assert "exceeded by" in message and "short by" not in message.split("total_hours_max")[1][:12]


def test_too_few_sources_for_the_share_cap_says_the_smallest_share_that_works():
    from msbench.construction.selection.selected import select_benchmark

    pool = [
        {**candidate(r["recording_id"], r["conditions"]["P"], 0.3, s), "U": 1.0}
        for r, s in zip(TOY, "abab", strict=False)
    ]
    with pytest.raises(
        SelectionInfeasible,
        match="2 sources cannot each have at most 25%.*smallest share that works is 50%",
    ):
        select_benchmark(pool, pool, SPACE, settings(max_source_share=0.25))


def test_report_states_one_coherent_solver_status():
    result = solve_selection(TOY, TOY_UTILITY, SPACE, settings())
    report = result.report
    assert report["gap_proven_by"] in {"lp_bound", "solver"}
    assert report["gap_proven_within_target"] is True
    if not report["solver_run"]:
        assert report["solver_status"] == "not run" and "not needed" in report["stopped_because"]
