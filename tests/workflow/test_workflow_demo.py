"""End to end: the real workflow on the embedded demo, in a temporary copy of the repository."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from msbench.columns import OFFICIAL_FIELDS
from tests.helpers.paths import SHARED_DATA, SHARED_MODELS, require_shared
from tests.helpers.shared_runs import private_copy
from tests.helpers.systems import reference_units, write_system
from tests.helpers.workflow import loop_bytes, manifest_bytes, snakemake

pytestmark = pytest.mark.slow


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


def test_characterization_manifests(demo_run: Path):
    manifests = demo_run / "results" / "manifests"
    recordings = read_csv(manifests / "recordings.csv")
    assert len(recordings) == 16
    assert list(recordings[0])[:6] == [
        "recording_id",
        "source_dataset",
        "language",
        "scenario",
        "recording_device",
        "duration_seconds",
    ]
    by_id = {row["recording_id"]: row for row in recordings}
    assert by_id["ami::trn02"]["eligible"] == "false"
    assert "fewer than 2 speakers" in by_id["ami::trn02"]["ineligible_reasons"]
    assert by_id["ami::trn02"]["ineligible_codes"].split("; ")[0] == "few_speakers"
    assert by_id["two_speaker::sample"]["num_speakers"] == "2"
    assert "ami::trñ00" in by_id
    # every recording has both raw quality scores and a pool rank
    for row in recordings:
        assert 1.0 <= float(row["dnsmos_ovrl"]) <= 5.0 and 1.0 <= float(row["nisqa_mos"]) <= 5.0
        assert 0.0 <= float(row["noise_difficulty"]) < 1.0
    # the bad sources beside the good ones (conftest): each file and source named, none lost
    rejected = {r["recording_id"]: r for r in read_csv(manifests / "rejected.csv")}
    assert set(rejected) == {"broken::lost", "damaged::fake", "damaged::folder", "failing::*"}
    assert rejected["broken::lost"]["code"] == "ingest_invalid"
    assert "audio file not found" in rejected["broken::lost"]["reason"]
    assert "damaged gzip file" in rejected["damaged::fake"]["reason"]
    assert "could not be ingested" in rejected["failing::*"]["reason"]
    summary = json.loads((manifests / "run_summary.json").read_text())
    assert summary["recordings_characterized"] == 16
    assert summary["recordings_rejected"] == 4
    assert summary["recordings_in"] == 16 + 4
    # a source that gave no recording is a failed source too (issue 58), with where to look
    assert list(summary["failed_sources"]) == ["broken", "damaged", "failing"]
    assert summary["failed_sources"]["broken"].startswith("gave no recording: 1 rejected")
    assert summary["characterized_by_source"] == {"ami": 14, "es2004a": 1, "two_speaker": 1}
    utterances = read_csv(manifests / "utterances.csv")
    assert all(0.0 <= float(u["overlap_exposure"]) <= 1.0 for u in utterances)
    assert any(u["speaker"] == "ami::trñ00::MÉO069" for u in utterances)


def test_benchmark_manifests(demo_run: Path):
    manifests = demo_run / "results" / "manifests"
    benchmark = read_csv(manifests / "benchmark.csv")
    assert benchmark, "the demo selects a non-empty benchmark"
    metadata = [
        json.loads(line) for line in (manifests / "metadata.jsonl").read_text().splitlines()
    ]
    assert [m["recording_id"] for m in metadata] == [b["recording_id"] for b in benchmark]
    assert all(tuple(m) == OFFICIAL_FIELDS for m in metadata)
    assert all(set(m["conditions"]) == set("POSTN") for m in metadata)
    report = json.loads((manifests / "selection_report.json").read_text())
    assert report["gap_proven_within_target"] is True
    assert report["selected"] == len(benchmark)
    assert 0.03 <= report["selected_hours"] <= 0.06
    summary = json.loads((manifests / "summary.json").read_text())
    assert summary["recordings"] == len(benchmark)
    pool = read_csv(manifests / "candidate_pool.csv")
    assert all(0 <= float(p[c]) <= 1 for p in pool for c in "CMDR")
    assert (manifests / "coverage.png").stat().st_size > 10_000
    assert (manifests / "profile_coverage.png").stat().st_size > 10_000
    assert (manifests / "condition_space.yaml").read_text().count("label:") == 21


def test_rerun_does_nothing_and_outputs_are_deterministic(
    demo_run: Path, clean_run: Path, tmp_path: Path
):
    """Nothing to do on a rerun; and the same inputs give the same bytes by another path: the
    clean demo's run, given the three broken sources afterwards (Snakemake reruns what they
    touch), equals the demo run made from scratch with them, manifests, the baseline's outputs,
    scores, Table 2, probes and review site alike."""
    from tests.workflow.conftest import add_broken_sources

    dry = snakemake(demo_run, "--cores", "1", "--dry-run")
    assert "Nothing to be done" in dry.stdout + dry.stderr
    later = private_copy(clean_run, tmp_path / "later")
    add_broken_sources(later)
    snakemake(later, "--cores", "2")
    assert manifest_bytes(later) == manifest_bytes(demo_run)
    assert loop_bytes(later) == loop_bytes(demo_run)


def test_the_loop_scores_and_diagnoses_the_baseline(demo_run: Path):
    """The first README command's loop: units, baseline, score, diagnose, on the demo."""
    units = read_csv(demo_run / "results/units/units.csv")
    benchmark = read_csv(demo_run / "results/manifests/benchmark.csv")
    assert [u["recording_id"] for u in units] == [b["recording_id"] for b in benchmark]
    for unit in units:
        audio = demo_run / "results/units/audio" / f"{unit['unit_id']}.flac"
        assert audio.stat().st_size > 10_000
        assert (demo_run / "results/systems/baseline" / f"{unit['unit_id']}.json").exists()
    sidecar = json.loads((demo_run / "results/systems/baseline/baseline.json").read_text())
    assert sidecar["device"] == "cpu" and sidecar["packages"]["faster-whisper"] == "1.2.1"
    assert len(sidecar["units"]) == len(units) and sidecar["x_real_time_cpu"] > 1
    summary = json.loads((demo_run / "results/evaluation/baseline/score_summary.json").read_text())
    assert summary["excluded"] == 0 and summary["units"] == len(units)
    # a real, weak system: it gets most words and speakers wrong sometimes, never all
    assert 0.2 < summary["wer"] < 0.95 and 0.1 < summary["der"] < 0.8
    assert summary["e_lex"] + summary["e_seg"] == pytest.approx(summary["wer"], abs=1e-12)
    assert 0 < summary["e_attr"] < 1 and 0.3 < summary["r_time"] < 1.5
    board = read_csv(demo_run / "results/evaluation/leaderboard.csv")
    assert [row["system_id"] for row in board] == ["simulated", "baseline"]  # best WER first
    names = {row["system_id"]: row["system"] for row in board}
    results = json.loads((demo_run / "results/evaluation/condition_results.json").read_text())
    assert results["systems"] == [{"id": s, "name": names[s]} for s in ("baseline", "simulated")]
    assert results["bootstrap"]["resamples"] == 1000 and results["bootstrap"]["seed"] == 0


def test_the_demo_compares_its_two_systems_on_common_ground(demo_run: Path):
    """Command 1 prints the comparison: the simulated system refuses the hardest unit, so the
    release view ranks the two on 6 against 7 units; common and penalised do not."""
    units = read_csv(demo_run / "results/units/units.csv")
    refused = demo_run / "results/systems/simulated/ami__tst00.refused"
    assert refused.exists() and len(list(refused.parent.glob("*.json"))) == len(units)  # + sidecar
    views = read_csv(demo_run / "results/evaluation/leaderboard_views.csv")
    scored = {(r["view"], r["system_id"]): int(r["units_scored"]) for r in views}
    assert scored == {
        ("release", "baseline"): 7, ("release", "simulated"): 6, ("common", "baseline"): 6,
        ("common", "simulated"): 6, ("penalised", "baseline"): 7, ("penalised", "simulated"): 7,
    }  # fmt: skip
    for row in views:
        assert float(row["cpwer_low"]) <= float(row["cpwer"]) <= float(row["cpwer_high"])
    markdown = (demo_run / "results/evaluation/leaderboard.md").read_text()
    assert (
        "1 of 7 units is not scored by every system (simulated excluded 1: ami__tst00)" in markdown
    )
    pairs = read_csv(demo_run / "results/evaluation/compare/pairs.csv")
    assert {(r["system_a"], r["system_b"]) for r in pairs} == {("baseline", "simulated")}
    (cp,) = (r for r in pairs if r["group"] == "all" and r["metric"] == "cpwer")
    assert cp["units"] == "6" and float(cp["difference"]) < 0  # the simulated system is better
    assert {r["group"] for r in pairs} >= {"all", "O1", "P0", "source_dataset=ami"}
    assert (demo_run / "results/evaluation/compare/compare.png").stat().st_size > 10_000
    document = json.loads((demo_run / "results/evaluation/compare/compare.json").read_text())
    assert document["settings"]["resamples"] == 1000 and document["settings"]["seed"] == 0
    assert {r["analysis"] for r in document["table2"]} >= {"decomposition", "overlap", "turn"}


def test_the_demo_probes_its_selection_in_every_family_a_reader_cannot_solve(demo_run: Path):
    """Every family of HEAR's eight has items on the demo, none a text-only reader solves."""
    probes = demo_run / "results/probes"
    items = [json.loads(line) for line in (probes / "items.jsonl").read_text().splitlines()]
    benchmark = {r["recording_id"] for r in read_csv(demo_run / "results/manifests/benchmark.csv")}
    present = {i["subtaxonomy"] for i in items}
    assert present == {"VC", "VL", "VCD", "CVA", "VCA", "IR", "TR", "QR"}, present
    assert {i["recording_id"] for i in items} <= benchmark
    assert all((probes / i["audio_path"]).stat().st_size > 100_000 for i in items)
    hear = [json.loads(line) for line in (probes / "hear.jsonl").read_text().splitlines()]
    assert [h["question_id"] for h in hear] == [i["question_id"] for i in items]
    summary = json.loads((probes / "probe_summary.json").read_text())
    assert summary["items"] == len(items) and summary["counterfactual_pairs"] == 0
    runner = [json.loads(line) for line in (probes / "hear_input.jsonl").read_text().splitlines()]
    assert [r["id"] for r in runner] == [i["question_id"] for i in items]
    assert all((probes / r["audio_path"]).is_file() for r in runner)  # relative to the file
    for task, row in summary["text_only_accuracy"].items():  # on the demo, too
        readers = {k: v for k, v in row.items() if k not in ("items", "chance", "interval_95")}
        assert all(v <= row["chance"] + 0.05 + 1e-6 for v in readers.values()), task


def test_changing_utility_weights_reruns_only_downstream(demo_run: Path, tmp_path: Path):
    override = tmp_path / "weights.yaml"
    override.write_text("utility:\n  weights: {C: 0.7, M: 0.1, D: 0.1, R: 0.1}\n")
    result = snakemake(demo_run, "--cores", "1", "--dry-run", configfiles=(str(override),))
    planned = result.stdout
    assert "rule pool" in planned and "rule select" in planned
    for upstream in ("checkpoint ingest:", "rule interaction:", "rule acoustic:", "rule bin:"):
        assert upstream not in planned, upstream


def test_threads_and_weight_folders_rerun_nothing(demo_run: Path, tmp_path: Path):
    """Only settings that change results are rule params: the same weights elsewhere are the same."""
    copied = tmp_path / "weights"
    shutil.copytree(require_shared(SHARED_MODELS), copied)
    override = tmp_path / "runtime.yaml"
    override.write_text(f"acoustic:\n  threads: 2\nmodels:\n  search_dirs: [{copied}]\n")
    result = snakemake(demo_run, "--cores", "1", "--dry-run", configfiles=(str(override),))
    assert "Nothing to be done" in result.stdout + result.stderr


def test_the_rebuild_config_is_not_the_demo_and_says_what_is_missing(demo_run: Path):
    """config/ is the MS-Bench rebuild: without the corpora it stops at once, naming the folder."""
    result = snakemake(demo_run, "--cores", "1", "--dry-run", check=False, demo=False)
    assert result.returncode != 0
    message = result.stdout + result.stderr
    assert "config/datasets.tsv:line 20 (source 'aishell4')" in message
    assert "corpora/AISHELL-4/test/TextGrid does not exist" in message


def test_external_systems_join_the_baseline_with_the_planted_errors(demo_copy: Path):
    """A user adds systems in config (README): only their scoring runs; counts are the planted ones."""
    demo_run = demo_copy
    manifests = demo_run / "results" / "manifests"
    units = reference_units(manifests / "utterances.csv", manifests / "benchmark.csv")
    write_system(demo_run / "systems" / "oracle", units, plant=False)
    planted = write_system(demo_run / "systems" / "planted", units, plant=True)
    config = demo_run / "systems.yaml"
    config.write_text(
        "systems:\n"
        "  - {id: oracle, name: reference as a system, outputs: systems/oracle}\n"
        "  - {id: planted, name: reference with planted errors, outputs: systems/planted}\n"
    )
    planned = snakemake(demo_run, "--cores", "1", "--dry-run", configfiles=(str(config),)).stdout
    assert (
        "rule evaluate" in planned
        and "rule acoustic" not in planned
        and "rule select" not in planned
        and "rule baseline" not in planned
    )
    snakemake(demo_run, "--cores", "2", configfiles=(str(config),))
    board = json.loads((demo_run / "results/evaluation/leaderboard.json").read_text())
    assert [row["system_id"] for row in board] == [
        "oracle",
        "planted",
        "baseline",
    ]  # best WER first
    oracle, errors, _ = board
    assert (oracle["der"], oracle["cpwer"], oracle["tcpwer"], oracle["wer"]) == (0.0, 0.0, 0.0, 0.0)
    assert oracle["excluded"] == 0
    # the speaker-agnostic WER sees exactly the planted edits; the swaps cost cpWER on top
    assert (errors["wer_substitutions"], errors["wer_deletions"], errors["wer_insertions"]) == (
        planted["substitutions"],
        planted["deletions"],
        planted["insertions"],
    )
    assert planted["swaps"] > 0 and errors["cp_errors"] > errors["wer_errors"]
    assert errors["cp_length"] == oracle["cp_length"] > 0
    assert round(100 * errors["cp_errors"] / errors["cp_length"], 2) == errors["cpwer"]
    units_csv = read_csv(demo_run / "results/evaluation/planted/unit_scores.csv")
    assert len(units_csv) == len(units) and all(u["status"] == "scored" for u in units_csv)
    conditions = read_csv(demo_run / "results/evaluation/by_condition.csv")
    assert {row["group"] for row in conditions} >= {"P", "O", "S", "T", "N", "source_dataset"}
    assert (demo_run / "results/evaluation/by_condition.png").stat().st_size > 10_000
    _check_condition_results(demo_run / "results/evaluation", planted)


def _check_condition_results(evaluation: Path, planted: dict[str, int]) -> None:
    """Table 2 in the release's layout, and the planted system's decomposition adds up to its WER."""
    official_path = require_shared(SHARED_DATA / "msbench-release" / "condition_results.json")
    official = json.loads(official_path.read_text())
    ours = json.loads((evaluation / "condition_results.json").read_text())
    assert [s["id"] for s in ours["systems"]] == ["baseline", "oracle", "planted"]
    assert set(official) <= set(ours)
    for name in ("overlap", "similarity", "acoustic", "turn", "speaker"):
        labels = [s["label"] for s in ours[name]["series"]]
        assert [s["label"] for s in official[name]["series"]][0] in labels
        for entry in ours[name]["series"]:
            assert len(entry["values"]) == len(entry["significant"]) == 3
    summary = json.loads((evaluation / "planted/score_summary.json").read_text())
    assert (
        summary["s"] + summary["i_lex"] + summary["i_seg"] + summary["d_lex"] + summary["d_seg"]
        == summary["wer_errors"]
        == sum(planted[k] for k in ("substitutions", "deletions", "insertions"))
    )
    assert summary["utterances_misattributed"] >= 1  # the swapped last utterances
    table = (evaluation / "table2.md").read_text()
    assert table.startswith("| system |") and "reference with planted errors" in table
    for figure in ("error_decomposition.png", "conditions.png"):
        assert (evaluation / figure).stat().st_size > 10_000


def test_the_audit_rule_runs_when_a_release_is_configured(demo_copy: Path):
    demo_run = demo_copy
    release = require_shared(SHARED_DATA / "msbench-release" / "metadata.jsonl")
    config = demo_run / "release.yaml"
    config.write_text(f"release: {release}\n")
    snakemake(demo_run, "--cores", "1", configfiles=(str(config),))
    report = json.loads((demo_run / "results/audit/audit.json").read_text())
    # the demo's AMI clips are not release recordings: nothing joins, all 99 are named as missing
    assert report["joined"] == 0 and len(report["release_ids_missing"]) == 99


def test_a_failing_step_says_why_on_the_terminal(demo_copy: Path):
    """An infeasible selection: its explanation reaches the terminal, not only select.log (last)."""
    demo_run = demo_copy
    override = demo_run / "infeasible.yaml"
    override.write_text("selection:\n  min_hours: 5.0\n  max_hours: 6.0\n")
    result = snakemake(demo_run, "--cores", "1", configfiles=(str(override),), check=False)
    assert result.returncode != 0
    assert "results/logs/select.log (last lines)" in result.stderr
    assert "msbench select: infeasible" in result.stderr
    assert "total_hours_min short by" in result.stderr
