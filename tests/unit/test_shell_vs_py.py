"""Every subcommand gives the same outputs through the shell and through its Python function.

The idea of meeteval's ``tests/test_shell_vs_py.py``: the chain ingest -> ...
-> overview runs once in Python on three real demo recordings; then each
subcommand runs through ``msbench`` on the same inputs into another folder,
and every output file must be byte-identical (printed JSON for ``describe``
and ``summary``).
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from msbench.stages import (
    COMMANDS,
    acoustic,
    audit,
    baseline,
    bin,
    collect,
    conditions,
    describe,
    diagnose,
    evaluate,
    ingest,
    interaction,
    leaderboard,
    overview,
    pool,
    probes,
    probes_score,
    review,
    score,
    select,
    summary,
    units,
)
from tests.helpers.paths import DEMO, SHARED_DATA, SHARED_MODELS, require_shared
from tests.helpers.systems import reference_units, write_system

SETTINGS = {
    "models": {"search_dirs": [str(SHARED_MODELS)], "offline": True},
    "acoustic": {"similarity": {"min_segment_seconds": 1.0}},
    "units": {"max_unit_seconds": 20.0},
    "selection": {
        "min_hours": 0.0,
        "max_hours": 1.0,
        "min_count_per_range": 0,
        "min_hours_per_range": 0.0,
        "max_source_share": 1.0,
    },
    "pool": {"max_source_share": 1.0},
}


def settings_json() -> str:
    from msbench.config import load_config

    config = load_config(None)
    for section, values in SETTINGS.items():
        for key, value in values.items():
            if isinstance(value, dict):
                config[section][key].update(value)
            else:
                config[section][key] = value
    return json.dumps({k: config[k] for k in SETTINGS}, sort_keys=True)


@dataclass(frozen=True)
class Case:
    """One subcommand: its Python call and its shell arguments, writing into ``out``."""

    call: Callable[[Path], None]
    argv: Callable[[Path], list[str]]
    outputs: tuple[str, ...]


def _sheet(folder: Path) -> Path:
    ami = DEMO / "ami"
    rows = [
        "name\tadapter\tannotations\taudio\tuem\ttranscripts\tlanguage\tscenario\tdevice\tchannel",
        f"ami\trttm\t{ami}/annotations/development.rttm\t{ami}/audio/{{session}}.flac\t"
        f"{ami}/annotations/development.uem\t{ami}/annotations/words/*.stm\tEnglish\tMeeting\theadset mix\t0",
        f"two\trttm\t{DEMO}/two-speaker/annotations/*.rttm\t"
        f"{DEMO}/two-speaker/audio/{{session}}.flac\t\t\tEnglish\tConversation\tphone\t0",
    ]
    sheet = folder / "datasets.tsv"
    sheet.write_text("\n".join(rows) + "\n")
    return sheet


def _cases(base: Path, sheet: Path, settings: str) -> dict[str, Case]:
    """Inputs always come from ``base`` (the Python chain), outputs go to the given folder."""
    ingested = base / "ingest/ami/recordings.jsonl"
    features = [base / "features/ami.jsonl", base / "features/two.jsonl"]
    acoustic_out = [base / "acoustic/ami.jsonl", base / "acoustic/two.jsonl"]
    space, labelled = base / "m/condition_space.yaml", base / "labelled.jsonl"
    manifest = base / "m/benchmark.csv"
    annotation = DEMO / "ami/annotations/development.rttm"
    two_stm, two_rttm = (
        DEMO / "two-speaker/annotations/sample.stm",
        DEMO / "two-speaker/annotations/sample.rttm",
    )
    system = json.dumps({"id": "oracle", "outputs": str(base / "oracle")})
    release = SHARED_DATA / "msbench-release" / "metadata.jsonl"
    uem = DEMO / "ami/annotations/development.uem"
    s = ["--settings", settings]
    return {
        "describe": Case(
            lambda out: describe.run((annotation,), uem=uem),
            lambda out: ["describe", str(annotation), "--uem", str(uem)],
            (),
        ),
        "ingest": Case(
            lambda out: ingest.run(sheet, "ami", out / "ingest/ami"),
            lambda out: ["ingest", "--sheet", str(sheet), "--source", "ami", "--out-dir", str(out / "ingest/ami")],
            ("ingest/ami/recordings.jsonl", "ingest/ami/rejected.jsonl", "ingest/ami/encodings.json"),
        ),
        "interaction": Case(
            lambda out: interaction.run(ingested, out / "features/ami.jsonl", out / "features/ami.csv"),
            lambda out: ["interaction", str(ingested), "--out", str(out / "features/ami.jsonl"), "--utterances", str(out / "features/ami.csv")],
            ("features/ami.jsonl", "features/ami.csv"),
        ),
        "acoustic": Case(
            lambda out: acoustic.run(ingested, out / "acoustic/ami.jsonl", out / "acoustic/ami.rej.jsonl", out / "acoustic/ami.sim.jsonl", shard=1, num_shards=2, settings=settings),
            lambda out: ["acoustic", str(ingested), "--out", str(out / "acoustic/ami.jsonl"), "--rejected", str(out / "acoustic/ami.rej.jsonl"), "--similarity", str(out / "acoustic/ami.sim.jsonl"), "--shard", "1", "--num-shards", "2", *s],
            ("acoustic/ami.jsonl", "acoustic/ami.rej.jsonl", "acoustic/ami.sim.jsonl"),
        ),
        "collect": Case(
            lambda out: collect.run(tuple(features), out / "characterized.jsonl", out / "m", acoustic=tuple(acoustic_out), settings=settings),
            lambda out: ["collect", "--features", *map(str, features), "--acoustic", *map(str, acoustic_out), "--out", str(out / "characterized.jsonl"), "--manifests", str(out / "m"), *s],
            ("characterized.jsonl", "m/rejected.csv", "m/utterances.csv", "m/run_summary.json"),
        ),
        "bin": Case(
            lambda out: bin.run(base / "characterized.jsonl", out / "labelled.jsonl", space_out=out / "m/condition_space.yaml", settings=settings),
            lambda out: ["bin", str(base / "characterized.jsonl"), "-o", str(out / "labelled.jsonl"), "--space-out", str(out / "m/condition_space.yaml"), *s],
            ("labelled.jsonl", "m/condition_space.yaml"),
        ),
        "pool": Case(
            lambda out: pool.run(labelled, space, out / "m/candidate_pool.csv", out / "excluded.jsonl", settings=settings),
            lambda out: ["pool", str(labelled), "--space", str(space), "-o", str(out / "m/candidate_pool.csv"), "--excluded", str(out / "excluded.jsonl"), *s],
            ("m/candidate_pool.csv", "excluded.jsonl"),
        ),
        "select": Case(
            lambda out: select.run(base / "m/candidate_pool.csv", labelled, space, out / "m", settings=settings),
            lambda out: ["select", str(base / "m/candidate_pool.csv"), "--labelled", str(labelled), "--space", str(space), "--out-dir", str(out / "m"), *s],
            ("m/benchmark.csv", "m/metadata.jsonl", "m/selection_report.json"),
        ),
        "overview": Case(
            lambda out: overview.run(labelled, base / "m/candidate_pool.csv", base / "excluded.jsonl", manifest, space, out / "m"),
            lambda out: ["overview", "--labelled", str(labelled), "--pool", str(base / "m/candidate_pool.csv"), "--excluded", str(base / "excluded.jsonl"), "--benchmark", str(manifest), "--space", str(space), "--out-dir", str(out / "m")],
            ("m/recordings.csv", "m/summary.json"),
        ),
        "summary": Case(
            lambda out: summary.run(manifest),
            lambda out: ["summary", str(manifest)],
            (),
        ),
        "score": Case(
            lambda out: score.run(two_stm, two_rttm),
            lambda out: ["score", "--ref", str(two_stm), "--hyp", str(two_rttm)],
            (),
        ),
        "evaluate": Case(
            lambda out: evaluate.run(system, manifest, base / "m/utterances.csv", out / "eval/oracle", settings=settings),
            lambda out: ["evaluate", "--system", system, "--benchmark", str(manifest), "--utterances", str(base / "m/utterances.csv"), "--out-dir", str(out / "eval/oracle"), *s],
            ("eval/oracle/units.csv", "eval/oracle/recordings.csv", "eval/oracle/summary.json", "eval/oracle/utterances.csv", "eval/oracle/pairs.csv"),
        ),
        "leaderboard": Case(
            lambda out: leaderboard.run((base / "eval/oracle",), manifest, out / "eval"),
            lambda out: ["leaderboard", "--systems", str(base / "eval/oracle"), "--benchmark", str(manifest), "--out-dir", str(out / "eval")],
            ("eval/leaderboard.csv", "eval/leaderboard.json", "eval/leaderboard.md", "eval/by_condition.csv"),
        ),
        "units": Case(
            lambda out: units.run(manifest, base / "m/recordings.csv", base / "m/utterances.csv", out / "units", settings=settings),
            lambda out: ["units", "--benchmark", str(manifest), "--recordings", str(base / "m/recordings.csv"), "--utterances", str(base / "m/utterances.csv"), "--out-dir", str(out / "units"), *s],
            ("units/units.csv", "units/audio/*.flac"),
        ),
        "baseline": Case(
            lambda out: baseline.run(base / "units/units.csv", manifest, out / "baseline", settings=settings),
            lambda out: ["baseline", "--units", str(base / "units/units.csv"), "--benchmark", str(manifest), "--out-dir", str(out / "baseline"), *s],
            ("baseline/*__*.json",),
        ),
        "diagnose": Case(
            lambda out: diagnose.run(base / "eval/oracle", manifest, base / "acoustic/ami.sim.jsonl", out / "eval/oracle/conditions.json", settings=settings),
            lambda out: ["diagnose", "--system-dir", str(base / "eval/oracle"), "--benchmark", str(manifest), "--similarity", str(base / "acoustic/ami.sim.jsonl"), "--out", str(out / "eval/oracle/conditions.json"), *s],
            ("eval/oracle/conditions.json",),
        ),
        "conditions": Case(
            lambda out: conditions.run((base / "eval/oracle/conditions.json",), out / "eval"),
            lambda out: ["conditions", "--systems", str(base / "eval/oracle/conditions.json"), "--out-dir", str(out / "eval")],
            ("eval/condition_results.json", "eval/table2.csv", "eval/table2.md", "eval/table2_intervals.md", "eval/error_decomposition.png", "eval/conditions.png"),
        ),
        "probes": Case(
            lambda out: probes.run(base / "m/recordings.csv", base / "features/ami.csv", out / "probes", manifest, settings=settings),
            lambda out: ["probes", "--recordings", str(base / "m/recordings.csv"), "--utterances", str(base / "features/ami.csv"), "--out-dir", str(out / "probes"), "--benchmark", str(manifest), *s],
            ("probes/items.jsonl", "probes/hear.jsonl", "probes/summary.json", "probes/audio/*.wav"),
        ),
        "probes-score": Case(
            lambda out: probes_score.run(base / "answers.json", base / "probes/items.jsonl"),
            lambda out: ["probes-score", str(base / "answers.json"), "--items", str(base / "probes/items.jsonl")],
            (),
        ),
        "review": Case(
            lambda out: review.run(manifest, base / "m/recordings.csv", base / "m/utterances.csv", base / "m/candidate_pool.csv", space, out / "review", figures=(base / "m/coverage.png",), systems=f"[{system}]", evaluations=(base / "eval/oracle",), settings=settings),
            lambda out: ["review", "--benchmark", str(manifest), "--recordings", str(base / "m/recordings.csv"), "--utterances", str(base / "m/utterances.csv"), "--pool", str(base / "m/candidate_pool.csv"), "--condition-space", str(space), "--out-dir", str(out / "review"), "--figures", str(base / "m/coverage.png"), "--systems", f"[{system}]", "--evaluations", str(base / "eval/oracle"), *s],
            ("review/index.html", "review/data/*.js", "review/recordings/*.html", "review/audio/*.opus", "review/assets/*", "review/figures/*.png"),
        ),
        "audit": Case(
            lambda out: audit.run(release, base / "m/recordings.csv", out / "audit"),
            lambda out: ["audit", "--release", str(release), "--features", str(base / "m/recordings.csv"), "--out-dir", str(out / "audit")],
            ("audit/audit.csv", "audit/audit_summary.csv", "audit/audit.json", "audit/audit.md"),
        ),
    }  # fmt: skip


def without_progress(printed: str) -> str:
    """Progress lines carry timings; everything else printed must agree."""
    return "".join(line for line in printed.splitlines(True) if not line.startswith("[acoustic"))


def _python(case: Case, out: Path) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        case.call(out)
    return printed.getvalue()


@pytest.fixture(scope="module")
def chain(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """Run every stage once in Python; the second source is ingested, described and scored too."""
    require_shared(SHARED_MODELS)
    base = tmp_path_factory.mktemp("py")
    sheet, settings = _sheet(base), settings_json()
    cases = _cases(base, sheet, settings)
    ingest.run(sheet, "two", base / "ingest/two")
    two = base / "ingest/two/recordings.jsonl"
    interaction.run(two, base / "features/two.jsonl", base / "features/two.csv")
    acoustic.run(two, base / "acoustic/two.jsonl", base / "acoustic/two.rej.jsonl", base / "acoustic/two.sim.jsonl", settings=settings)  # fmt: skip
    for command in (
        "ingest",
        "interaction",
        "collect",
        "bin",
        "pool",
        "select",
        "overview",
        "evaluate",
        "diagnose",
        "units",
        "probes",
    ):
        if command == "evaluate":
            units = reference_units(base / "m/utterances.csv", base / "m/benchmark.csv")
            write_system(base / "oracle", units, plant=True)
        if command == "collect":
            acoustic.run(base / "ingest/ami/recordings.jsonl", base / "acoustic/ami.jsonl", base / "acoustic/ami.rej.jsonl", base / "acoustic/ami.sim.jsonl", settings=settings)  # fmt: skip
        _python(cases[command], base)
    items = (base / "probes/items.jsonl").read_text(encoding="utf-8").splitlines()
    answers = {json.loads(line)["question_id"]: "B" for line in items}
    (base / "answers.json").write_text(json.dumps(answers), encoding="utf-8")
    return base, sheet, settings


def test_every_subcommand_is_covered():
    assert set(_cases(Path("."), Path("."), "{}")) == set(COMMANDS)


@pytest.mark.models
@pytest.mark.parametrize("command", list(COMMANDS))
def test_shell_equals_python(command: str, chain: tuple[Path, Path, str], tmp_path: Path):
    base, sheet, settings = chain
    case = _cases(base, sheet, settings)[command]
    py_out, sh_out = tmp_path / "py", tmp_path / "sh"
    printed = _python(case, py_out)
    result = subprocess.run(
        [sys.executable, "-m", "msbench.cli", *case.argv(sh_out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    assert without_progress(result.stdout) == without_progress(printed)
    for pattern in case.outputs:  # a pattern with * names every file it matches, at least one
        names = sorted(p.relative_to(py_out) for p in py_out.glob(pattern))
        assert names and names == sorted(p.relative_to(sh_out) for p in sh_out.glob(pattern))
        for name in names:
            assert (sh_out / name).read_bytes() == (py_out / name).read_bytes(), name
    if not case.outputs:
        assert printed.strip(), "a printing command printed nothing"
