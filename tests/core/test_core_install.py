"""The core install, as a researcher gets it from the wheel alone (``pip install
msbench-toolkit``, no extras): run by ``scripts/core_tests.sh`` in a fresh Python 3.13
virtualenv (``.ci/run``), beside the tests marked ``core``. The main suite does not collect this
folder: here torch, lhotse and the models are really missing."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.paths import DEMO, REPO

STM = DEMO / "two-speaker/annotations/sample.stm"
LHOTSE = REPO / "tests/fixtures/lhotse/sample_supervisions.jsonl.gz"
#: A command whose extra the core leaves out -> the extra its one-line message names.
NEEDS_EXTRA = {"acoustic": "models", "baseline": "baseline"}


def msbench(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "msbench", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=cwd)


def test_the_core_install_is_light_and_from_the_wheel():
    import msbench

    assert Path(msbench.__file__).resolve().is_relative_to(Path(sys.prefix).resolve())
    for heavy in ("torch", "lhotse", "datasets", "snakemake", "onnxruntime"):
        assert importlib.util.find_spec(heavy) is None, heavy
    size = sum(f.stat().st_size for f in Path(sys.prefix).rglob("*") if f.is_file())
    assert size < 1024**3, f"{size / 1024**2:.0f} MB"


def test_the_three_lines_of_the_readme(tmp_path: Path):
    """``import msbench; r = msbench.score("ref.stm", "hyp.json"); print(r.rate("cpwer"))``,
    and the same with the reference as dicts, a meeteval SegLST and lhotse supervisions."""
    from meeteval.io import SegLST

    import msbench
    from msbench.io.read import read_segments

    hyp = tmp_path / "hyp.json"
    dicts = [s.to_seglst() for s in read_segments(STM)]
    dicts[0]["words"] = "Goodbye?"
    hyp.write_text(json.dumps(dicts), encoding="utf-8")
    shell = json.loads(msbench_json("--ref", STM, "--hyp", hyp))
    report = msbench.score(str(STM), str(hyp))
    assert report.rate("cpwer") == shell["cpwer"]["error_rate"] == 1 / 81
    assert report.to_dict() == shell
    reference = [s.to_seglst() for s in read_segments(STM)]
    for shape in (reference, SegLST(reference), str(LHOTSE)):
        found = msbench.score(shape, str(hyp))
        assert {k: v for k, v in found.items() if k != "read"} == {
            k: v for k, v in shell.items() if k != "read"
        }, type(shape).__name__


def msbench_json(*args: object) -> str:
    done = msbench("score", *map(str, args), "--json")
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_subcommand_starts_from_the_core():
    from msbench.stages import COMMANDS

    for command in COMMANDS:
        done = msbench(command, "--help")
        assert done.returncode == 0 and "usage: msbench" in done.stdout, (command, done.stderr)


@pytest.mark.parametrize("command", sorted(NEEDS_EXTRA))
def test_a_command_of_an_extra_names_it_in_one_line(command: str, tmp_path: Path):
    """Reached with real inputs (the demo ingested here), the missing module is named with the
    extra that installs it: one line, exit 2, no traceback."""
    work = tmp_path / "work"
    work.mkdir()
    sheet = DEMO / "datasets.tsv"
    ingested = msbench("ingest", "--sheet", str(sheet), "--source", "two_speaker", "--out-dir",
                       str(work / "ingest"), cwd=REPO)  # fmt: skip
    assert ingested.returncode == 0, ingested.stderr
    recordings = work / "ingest" / "recordings.jsonl"
    if command == "acoustic":
        args = ["--ingested", recordings, "--out", work / "a.jsonl", "--rejected",
                work / "r.jsonl", "--similarity", work / "s.jsonl"]  # fmt: skip
    else:
        from tests.helpers.diagnostics import demo_references, write_inputs

        write_inputs(work, demo_references())  # benchmark.csv as msbench select writes it
        units = work / "units.csv"
        units.write_text("unit_id,recording_id,start,end\nu,ami::dev00,0,30\n")
        args = ["--units", units, "--benchmark", work / "benchmark.csv", "--out-dir", work / "out"]
    done = msbench(command, *map(str, args), cwd=REPO)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert f"pip install 'msbench-toolkit[{NEEDS_EXTRA[command]}]'" in lines[-1], lines
