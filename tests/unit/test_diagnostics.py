"""The diagnostics on real AMI words with planted errors: each analysis recovers what was planted."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from msbench.catalog import BENCHMARK, UNIT_SCORES, UTTERANCE_SCORES
from msbench.records import Segment
from msbench.scoring.tokenizer import tokenize
from msbench.tables import read_rows
from tests.helpers.diagnostics import (
    demo_references,
    exposure_and_switches,
    run_system,
    series,
    write_inputs,
)

REFERENCES = demo_references()
TOLERANCE = 0.25  # scoring.segmentation_tolerance (default)


def tokens(segment: Segment) -> list[str]:
    return tokenize(segment.words, "mixed-v1")


def with_words(segment: Segment, words: list[str]) -> Segment:
    return replace(segment, words=" ".join(words))


def identity(rid: str, utterances: list[Segment]) -> list[Segment]:
    return [with_words(u, tokens(u)) for u in utterances]


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("diagnostics")
    write_inputs(folder, REFERENCES)
    return folder


def test_the_reference_as_a_system_has_no_error_of_any_kind(inputs: Path):
    conditions, folder = run_system(inputs, REFERENCES, identity, name="oracle")
    summary = json.loads((folder / "score_summary.json").read_text())
    assert summary["e_lex"] == summary["e_seg"] == summary["e_attr"] == 0.0
    assert summary["n_ref"] == sum(len(tokens(u)) for us in REFERENCES.values() for u in us)
    assert summary["utterances_attributable"] == summary["utterances"]
    assert series(conditions, "overlap", "Delta E_lex")["value"] == 0.0


def _substitute_overlapped(rid: str, utterances: list[Segment]) -> list[Segment]:
    out = []
    for u, (r_ov, _) in zip(utterances, exposure_and_switches(utterances), strict=True):
        words = tokens(u)
        if r_ov >= 0.5:
            words = [w if k % 2 else "zzsub" for k, w in enumerate(words)]
        out.append(with_words(u, words))
    return out


def test_substitutions_inside_overlap_raise_delta_lex_and_leave_attribution(inputs: Path):
    conditions, folder = run_system(inputs, REFERENCES, _substitute_overlapped, name="subs")
    planted = sum(
        (len(tokens(u)) + 1) // 2
        for us in REFERENCES.values()
        for u, (r_ov, _) in zip(us, exposure_and_switches(us), strict=True)
        if r_ov >= 0.5
    )
    summary = json.loads((folder / "score_summary.json").read_text())
    assert (summary["s"], summary["i_lex"], summary["d_lex"], summary["e_seg"]) == (
        planted,
        0,
        0,
        0.0,
    )
    lex = series(conditions, "overlap", "Delta E_lex")
    attr = series(conditions, "overlap", "Delta E_attr")
    assert lex["value"] > 20 and lex["significant"] is True
    assert attr["value"] == 0.0 and attr["significant"] is False


def _swap_near_switches(rid: str, utterances: list[Segment]) -> list[Segment]:
    """Non-overlapped utterances within 0.5 s of a switch go to another speaker.

    At most 30 % of a speaker's tokens move, so that the optimal speaker
    mapping stays the identity (moving them all would just rename speakers).
    """
    speakers = sorted({u.speaker for u in utterances})
    budget = {s: 0.3 * sum(len(tokens(u)) for u in utterances if u.speaker == s) for s in speakers}
    out = []
    for u, (r_ov, distance) in zip(utterances, exposure_and_switches(utterances), strict=True):
        near = r_ov == 0 and distance is not None and distance <= 0.5
        if near and len(speakers) > 1 and len(tokens(u)) <= budget[u.speaker]:
            budget[u.speaker] -= len(tokens(u))
            u = replace(u, speaker=next(s for s in speakers if s != u.speaker))
        out.append(with_words(u, tokens(u)))
    return out


def test_speaker_swaps_at_switches_show_in_the_turn_analysis_only(inputs: Path):
    conditions, folder = run_system(inputs, REFERENCES, _swap_near_switches, name="swaps")
    summary = json.loads((folder / "score_summary.json").read_text())
    assert summary["wer"] == 0.0 and summary["e_lex"] == 0.0  # a swap costs no agnostic error
    assert summary["utterances_misattributed"] > 0
    turn = series(conditions, "turn", "Delta E_attr")
    assert turn["value"] > 10 and turn["interval"][0] > 0 and turn["significant"] is True
    assert series(conditions, "turn", "Delta E_lex")["value"] == 0.0
    assert series(conditions, "overlap", "Delta E_lex")["value"] == 0.0


def _isolated(utterances: list[Segment], k: int) -> bool:
    """No other reference speech within the tolerance of utterance ``k``."""
    u = utterances[k]
    return all(
        o.end_time < u.start_time - TOLERANCE or o.start_time > u.end_time + TOLERANCE
        for j, o in enumerate(utterances)
        if j != k
    )


def _drop_isolated(rid: str, utterances: list[Segment]) -> list[Segment]:
    return [
        with_words(u, tokens(u)) for k, u in enumerate(utterances) if not _isolated(utterances, k)
    ]


def test_a_dropped_speech_region_is_all_segmentation_deletions(inputs: Path):
    dropped = sum(
        len(tokens(u))
        for us in REFERENCES.values()
        if not all(_isolated(us, k) for k in range(len(us)))  # else the unit is excluded
        for k, u in enumerate(us)
        if _isolated(us, k)
    )
    assert dropped > 0
    _, folder = run_system(inputs, REFERENCES, _drop_isolated, name="dropped")
    summary = json.loads((folder / "score_summary.json").read_text())
    assert (summary["d_seg"], summary["d_lex"], summary["s"], summary["e_lex"]) == (
        dropped,
        0,
        0,
        0.0,
    )
    assert summary["e_seg"] == pytest.approx(summary["wer"], abs=0)


def _silence(utterances: list[Segment]) -> tuple[float, float] | None:
    """The longest gap between reference speech, if longer than 1 s."""
    spans = sorted((u.start_time, u.end_time) for u in utterances)
    best, end = None, spans[0][1]
    for start, stop in spans[1:]:
        if start - end > 1.0 and (best is None or start - end > best[1] - best[0]):
            best = (end, start)
        end = max(end, stop)
    return best


def _insert_in_silence(rid: str, utterances: list[Segment]) -> list[Segment]:
    out = [with_words(u, tokens(u)) for u in utterances]
    gap = _silence(utterances)
    if gap:
        middle = (gap[0] + gap[1]) / 2
        out.append(
            replace(
                utterances[0], start_time=middle - 0.1, end_time=middle + 0.1, words="zzins zzins"
            )
        )
    return out


def test_words_inserted_in_silence_are_all_segmentation_insertions(inputs: Path):
    inserted = 2 * sum(_silence(us) is not None for us in REFERENCES.values())
    assert inserted > 0
    _, folder = run_system(inputs, REFERENCES, _insert_in_silence, name="inserted")
    summary = json.loads((folder / "score_summary.json").read_text())
    assert (summary["i_seg"], summary["i_lex"], summary["e_lex"]) == (inserted, 0, 0.0)


def _most_talkative(utterances: list[Segment]) -> list[str]:
    words: dict[str, int] = {}
    for u in utterances:
        words[u.speaker] = words.get(u.speaker, 0) + len(tokens(u))
    return sorted(words, key=lambda s: (-words[s], s))


def _similarity() -> dict[str, dict[tuple[str, str], float]]:
    """Made-up cosines: the two most talkative speakers of a 3+ speaker clip are the similar pair."""
    out = {}
    for rid, us in REFERENCES.items():
        ranked = _most_talkative(us)
        similar = set(ranked[:2]) if len(ranked) >= 3 else set()
        out[rid] = {
            (a, b): 0.8 if {a, b} == similar else 0.1 + 0.01 * (i + j)
            for i, a in enumerate(ranked)
            for j, b in enumerate(ranked)
            if a != b
        }
    return out


def _confuse_similar(rid: str, utterances: list[Segment]) -> list[Segment]:
    ranked = _most_talkative(utterances)
    out, seen = [], 0
    for u, (r_ov, _) in zip(utterances, exposure_and_switches(utterances), strict=True):
        if len(ranked) >= 3 and u.speaker == ranked[1] and r_ov == 0:
            seen += 1
            if seen % 3 == 1:
                u = replace(u, speaker=ranked[0])
        out.append(with_words(u, tokens(u)))
    return out


def test_confusions_between_the_most_similar_pair_give_a_positive_rho(inputs: Path):
    conditions, _ = run_system(
        inputs, REFERENCES, _confuse_similar, name="similar", similarity=_similarity()
    )
    rho = series(conditions, "similarity", "Spearman rho")
    assert conditions["analyses"]["similarity"]["counts"]["pairs_confused"] > 0
    assert rho["value"] > 0.2 and rho["interval"][0] > 0


def _messy(rid: str, utterances: list[Segment]) -> list[Segment]:
    """Every kind of error at once: substitutions, deletions, insertions, shifts, swaps, drops."""
    speakers = sorted({u.speaker for u in utterances})
    out = []
    for k, u in enumerate(utterances):
        words = tokens(u)
        if k % 5 == 0:
            continue
        if k % 5 == 1:
            words = ["zzsub", *words[1:-1]]
        if k % 5 == 2:
            words = [*words, "zzins"]
            u = u.with_times(u.start_time + 0.4, u.end_time + 0.4)
        if k % 5 == 3:
            u = replace(u, speaker=speakers[(speakers.index(u.speaker) + 1) % len(speakers)])
        out.append(with_words(u, words))
    return out


def test_e_lex_plus_e_seg_is_the_agnostic_wer_on_every_unit(inputs: Path):
    _, folder = run_system(inputs, REFERENCES, _messy, name="messy")
    units = [
        u for u in read_rows(UNIT_SCORES, folder / "unit_scores.csv") if u["status"] != "excluded"
    ]
    assert len(units) >= len(REFERENCES) - 1  # trn02's one utterance is dropped: excluded
    for unit in units:
        parts = sum(unit[k] for k in ("s", "i_lex", "i_seg", "d_lex", "d_seg"))
        assert (parts, unit["n_ref"]) == (unit["wer_errors"], unit["wer_length"]), unit["unit_id"]
        assert unit["e_lex"] + unit["e_seg"] == pytest.approx(
            unit["wer"], abs=2e-6
        )  # 6-decimal CSV
    utterances = read_rows(UTTERANCE_SCORES, folder / "utterance_scores.csv")
    assert sum(u["n_ref"] for u in utterances) == sum(u["n_ref"] for u in units)


def test_the_bootstrap_is_deterministic_for_a_seed(inputs: Path):
    first, folder = run_system(inputs, REFERENCES, _swap_near_switches, name="seeded")
    again, _ = run_system(inputs, REFERENCES, _swap_near_switches, name="seeded")
    assert first == again
    other, _ = run_system(
        inputs,
        REFERENCES,
        _swap_near_switches,
        name="seeded",
        diagnostics={"bootstrap": {"seed": 7, "resamples": 200}},
    )
    assert other["bootstrap"]["seed"] == 7 and other["bootstrap"]["resamples"] == 200
    assert (
        series(other, "turn", "Delta E_attr")["value"]
        == series(first, "turn", "Delta E_attr")["value"]
    )

    def intervals(c: dict, key: str = "interval") -> list:
        return [s[key] for a in c["analyses"].values() for s in a["series"]]

    # the intervals are the jackknife's over recordings: no draw changes them; the bootstrap's
    # other draws are counted beside them
    assert intervals(other) == intervals(first)
    assert intervals(other, "defined_resamples") != intervals(first, "defined_resamples")


def test_chunked_units_make_the_speaker_analysis_not_evaluable(inputs: Path, tmp_path: Path):
    from msbench.diagnostics.analysis_inputs import load_system
    from msbench.diagnostics.correlations import chunked_reason

    _, folder = run_system(inputs, REFERENCES, identity, name="chunked")
    tables = load_system(folder, [dict(r) for r in read_rows(BENCHMARK, inputs / "benchmark.csv")])
    assert chunked_reason(tables) is None
    tables.units[0] = {**tables.units[0], "ref_speakers": 1}
    assert "do not hold every speaker" in (chunked_reason(tables) or "")
