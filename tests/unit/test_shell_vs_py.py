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
from typing import Any

import pytest

from msbench.cli import stage_function
from msbench.stages import COMMANDS, acoustic, ingest, interaction
from tests.helpers.paths import DEMO, SHARED_DATA, SHARED_MODELS, require_shared
from tests.helpers.systems import reference_units, write_system

SETTINGS = {
    "models": {"search_dirs": [str(SHARED_MODELS)], "offline": True},
    "acoustic": {
        "similarity": {"min_segment_seconds": 1.0},
        "batch_hours": 0.01,
    },  # 2 batches of ami
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
    """One subcommand: its keyword arguments (writing into the given folder) and its outputs.

    The shell arguments are derived from the same keywords (:func:`argv`), as
    :mod:`msbench.cli` maps ``out_dir`` to ``--out-dir``: each argument is written once.
    """

    kwargs: Callable[[Path], dict[str, Any]]
    outputs: tuple[str, ...]


def argv(command: str, kwargs: dict[str, Any]) -> list[str]:
    """The command line of a call: ``--name value``, several values for a tuple, a bare switch."""
    line = [command]
    for name, value in kwargs.items():
        flag = f"--{name.replace('_', '-')}"
        if value is None or value is False:
            continue
        if value is True:
            line.append(flag)
        elif isinstance(value, tuple):
            line += [flag, *map(str, value)]
        else:
            line += [flag, str(value)]
    return line


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
    return {**_building(base, sheet, settings), **_using(base, settings)}


def _building(base: Path, sheet: Path, settings: str) -> dict[str, Case]:
    """The construction stages: describe ... overview."""
    ingested = base / "ingest/ami/recordings.jsonl"
    features = [base / "features/ami.jsonl", base / "features/two.jsonl"]
    acoustic_out = [base / "acoustic/ami.jsonl", base / "acoustic/two.jsonl"]
    space, labelled = base / "m/condition_space.yaml", base / "labelled.jsonl"
    manifest = base / "m/benchmark.csv"
    annotation = DEMO / "ami/annotations/development.rttm"
    uem = DEMO / "ami/annotations/development.uem"
    return {
        "describe": Case(lambda out: {"annotations": (annotation,), "uem": uem}, ()),
        "ingest": Case(
            lambda out: {"sheet": sheet, "source": "ami", "out_dir": out / "ingest/ami"},
            ("ingest/ami/recordings.jsonl", "ingest/ami/rejected.jsonl", "ingest/ami/encodings.json"),
        ),
        "interaction": Case(
            lambda out: {"ingested": ingested, "out": out / "features/ami.jsonl", "utterances": out / "features/ami.csv"},
            ("features/ami.jsonl", "features/ami.csv"),
        ),
        "acoustic": Case(
            lambda out: {"ingested": ingested, "out": out / "acoustic/ami.jsonl", "rejected": out / "acoustic/ami.rej.jsonl", "similarity": out / "acoustic/ami.sim.jsonl", "batch": 1, "batches": 2, "settings": settings},
            ("acoustic/ami.jsonl", "acoustic/ami.rej.jsonl", "acoustic/ami.sim.jsonl"),
        ),
        "gather": Case(
            lambda out: {"out": out / "gathered.jsonl", "parts": tuple(acoustic_out)},
            ("gathered.jsonl",),
        ),
        "collect": Case(
            lambda out: {"features": tuple(features), "acoustic": tuple(acoustic_out), "out": out / "characterized.jsonl", "manifests": out / "m", "settings": settings},
            ("characterized.jsonl", "m/rejected.csv", "m/utterances.csv", "m/run_summary.json"),
        ),
        "bin": Case(
            lambda out: {"features": base / "characterized.jsonl", "out": out / "labelled.jsonl", "space_out": out / "m/condition_space.yaml", "settings": settings},
            ("labelled.jsonl", "m/condition_space.yaml"),
        ),
        "pool": Case(
            lambda out: {"labelled": labelled, "space": space, "out": out / "m/candidate_pool.csv", "excluded": out / "excluded.jsonl", "settings": settings},
            ("m/candidate_pool.csv", "excluded.jsonl"),
        ),
        "select": Case(
            lambda out: {"pool": base / "m/candidate_pool.csv", "labelled": labelled, "space": space, "out_dir": out / "m", "settings": settings},
            ("m/benchmark.csv", "m/metadata.jsonl", "m/selection_report.json"),
        ),
        "overview": Case(
            lambda out: {"labelled": labelled, "pool": base / "m/candidate_pool.csv", "excluded": base / "excluded.jsonl", "benchmark": manifest, "space": space, "out_dir": out / "m"},
            ("m/recordings.csv", "m/summary.json"),
        ),
    }  # fmt: skip


def _using(base: Path, settings: str) -> dict[str, Case]:
    """The stages that use a benchmark: summary, scoring, units, baseline, analyses, probes, review."""
    space, manifest = base / "m/condition_space.yaml", base / "m/benchmark.csv"
    two_stm = DEMO / "two-speaker/annotations/sample.stm"
    two_rttm = DEMO / "two-speaker/annotations/sample.rttm"
    system = json.dumps({"id": "oracle", "outputs": str(base / "oracle")})  # review, export
    release = SHARED_DATA / "msbench-release" / "metadata.jsonl"
    return {
        "summary": Case(lambda out: {"manifest": manifest}, ()),
        "score": Case(lambda out: {"ref": two_stm, "hyp": two_rttm}, ()),
        "evaluate": Case(
            lambda out: {"outputs": base / "oracle", "system_id": "oracle", "benchmark": manifest, "utterances": base / "m/utterances.csv", "out_dir": out / "eval/oracle", "settings": settings},
            ("eval/oracle/unit_scores.csv", "eval/oracle/recording_scores.csv", "eval/oracle/score_summary.json", "eval/oracle/utterance_scores.csv", "eval/oracle/pairs.csv", "eval/oracle/penalty_scores.csv"),
        ),
        **_comparison_cases(base, manifest, settings),
        "leaderboard": Case(
            lambda out: {"systems": (base / "eval/oracle",), "benchmark": manifest, "out_dir": out / "eval"},
            ("eval/leaderboard.csv", "eval/leaderboard.json", "eval/leaderboard.md", "eval/by_condition.csv"),
        ),
        "units": Case(
            lambda out: {"benchmark": manifest, "recordings": base / "m/recordings.csv", "utterances": base / "m/utterances.csv", "out_dir": out / "units", "settings": settings},
            ("units/units.csv", "units/audio/*.flac"),
        ),
        "baseline": Case(
            lambda out: {"units": base / "units/units.csv", "benchmark": manifest, "out_dir": out / "baseline", "settings": settings},
            ("baseline/*__*.json",),
        ),
        "diagnose": Case(
            lambda out: {"system_dir": base / "eval/oracle", "benchmark": manifest, "similarity": base / "acoustic/ami.sim.jsonl", "out": out / "eval/oracle/conditions.json", "settings": settings},
            ("eval/oracle/conditions.json",),
        ),
        "table2": Case(
            lambda out: {"systems": (base / "eval/oracle/conditions.json",), "out_dir": out / "eval"},
            ("eval/condition_results.json", "eval/table2.csv", "eval/table2.md", "eval/table2_intervals.md", "eval/error_decomposition.png", "eval/conditions.png"),
        ),
        "probes": Case(
            lambda out: {"recordings": base / "m/recordings.csv", "utterances": base / "features/ami.csv", "out_dir": out / "probes", "benchmark": manifest, "ingested": (base / "ingest/ami/recordings.jsonl",), "settings": settings},
            ("probes/items.jsonl", "probes/hear.jsonl", "probes/hear_input.jsonl", "probes/probe_summary.json", "probes/audio/*.wav"),
        ),
        "probes-score": Case(lambda out: {"answers": base / "answers.json", "items": base / "probes/items.jsonl"}, ()),
        "review": Case(
            lambda out: {"benchmark": manifest, "recordings": base / "m/recordings.csv", "utterances": base / "m/utterances.csv", "pool": base / "m/candidate_pool.csv", "condition_space": space, "out_dir": out / "review", "figures": (base / "m/coverage.png",), "systems": f"[{system}]", "evaluations": (base / "eval/oracle",), "settings": settings},
            ("review/index.html", "review/data/*.js", "review/recordings/*.html", "review/audio/*.opus", "review/assets/*", "review/figures/*.png"),
        ),
        "export": Case(
            lambda out: {"to": ("lhotse", "kaldi", "seglst"), "out": out / "export", "benchmark": manifest, "recordings": base / "m/recordings.csv", "utterances": base / "m/utterances.csv", "units": base / "units/units.csv", "unit_audio": base / "units/audio", "ingested": (base / "ingest/ami/recordings.jsonl",), "systems": (system,)},
            ("export/README.md", "export/lhotse/*.gz", "export/kaldi/*", "export/seglst/*.*", "export/seglst/normalised/*.json"),
        ),
        "audit": Case(
            lambda out: {"release": release, "features": base / "m/recordings.csv", "out_dir": out / "audit"},
            ("audit/audit.csv", "audit/audit_summary.csv", "audit/audit.json", "audit/audit.md"),
        ),
    }  # fmt: skip


def _comparison_cases(base: Path, manifest: Path, settings: str) -> dict[str, Case]:
    """A simulated second system, and the comparison of the two."""
    simulated = json.dumps({"id": "sim", "outputs": str(base / "sim"), "simulate": {"seed": 2}})
    return {
        "simulate": Case(
            lambda out: {"system": simulated, "benchmark": manifest, "utterances": base / "m/utterances.csv", "out_dir": out / "sim"},
            ("sim/*.json",),
        ),
        "compare": Case(
            lambda out: {"evaluations": (base / "eval/oracle", base / "eval/sim"), "benchmark": manifest, "out": out / "eval/compare", "similarity": base / "acoustic/ami.sim.jsonl", "settings": settings},
            ("eval/compare/pairs.csv", "eval/compare/table2_pairs.csv", "eval/compare/compare.md", "eval/compare/compare.json", "eval/compare/compare.png"),
        ),
    }  # fmt: skip


def without_progress(printed: str) -> str:
    """Progress lines carry timings; everything else printed must agree."""
    return "".join(line for line in printed.splitlines(True) if not line.startswith("[acoustic"))


def _python(command: str, case: Case, out: Path) -> str:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        stage_function(command)(**case.kwargs(out))
    return printed.getvalue()


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def chain(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """Run every stage once in Python; the second source is ingested, described and scored too."""
    require_shared(SHARED_MODELS)
    base = tmp_path_factory.mktemp("py")
    sheet, settings = _sheet(base), settings_json()
    cases = _cases(base, sheet, settings)
    ingest.run(sheet=sheet, source="two", out_dir=base / "ingest/two")
    two = base / "ingest/two/recordings.jsonl"
    interaction.run(
        ingested=two, out=base / "features/two.jsonl", utterances=base / "features/two.csv"
    )
    acoustic.run(ingested=two, out=base / "acoustic/two.jsonl", rejected=base / "acoustic/two.rej.jsonl", similarity=base / "acoustic/two.sim.jsonl", settings=settings)  # fmt: skip
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
            ami = base / "ingest/ami/recordings.jsonl"
            acoustic.run(ingested=ami, out=base / "acoustic/ami.jsonl", rejected=base / "acoustic/ami.rej.jsonl", similarity=base / "acoustic/ami.sim.jsonl", settings=settings)  # fmt: skip
        _python(command, cases[command], base)
        if command == "evaluate":  # a second system, for compare
            _python("simulate", cases["simulate"], base)
            evaluated = {
                **cases["evaluate"].kwargs(base),
                "outputs": base / "sim",
                "system_id": "sim",
                "out_dir": base / "eval/sim",
            }
            stage_function("evaluate")(**evaluated)
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
    printed = _python(command, case, py_out)
    result = subprocess.run(
        [sys.executable, "-m", "msbench.cli", *argv(command, case.kwargs(sh_out))],
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
