"""The Python API (``msbench.score`` and friends) on what researchers hold, against the command
line: the same keywords as the options, the same JSON, every input shape read alike."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import typing
from pathlib import Path

import pytest

import msbench
from msbench.cli import stage_function
from msbench.io.read import read_segments
from tests.helpers.paths import DEMO

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core

STM = DEMO / "two-speaker/annotations/sample.stm"
RTTM = DEMO / "two-speaker/annotations/sample.rttm"
#: command option -> API keyword, where the names differ (paths: ref/hyp on the command line)
RENAMED = {"ref": "reference", "hyp": "hypothesis"}
#: options of the command line alone (how to print, where to write) and keywords of Python alone
CLI_ONLY = {"score": {"json"}, "evaluate": {"out_dir"}, "compare": {"out"}}
API_ONLY = {"score": {"progress"}, "evaluate": {"alignments"}, "compare": set()}


def msbench_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "msbench", *args], capture_output=True, text=True, timeout=600
    )


def hypothesis_dicts() -> list[dict]:
    """The sample's reference with a word substituted, one deleted, one speaker swapped."""
    rows = [s.to_seglst() for s in read_segments(STM)]
    rows[2]["words"] = "Oh, goodbye."
    rows[3]["words"] = rows[3]["words"].split(" ", 1)[1]
    rows[4]["speaker"] = "Diane"
    return rows


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def hyp_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("api") / "hyp.json"
    path.write_text(json.dumps(hypothesis_dicts()), encoding="utf-8")
    return path


@pytest.mark.parametrize("command", ["score", "evaluate", "compare"])
def test_every_option_is_a_keyword_with_the_same_default(command: str):
    """meeteval's tests/test_shell_vs_py.py idea: the command's options are the API's keywords."""
    options = inspect.signature(stage_function(command)).parameters
    keywords = inspect.signature(getattr(msbench, command)).parameters
    named = {RENAMED.get(k, k) for k in options} - CLI_ONLY[command]
    assert named == set(keywords) - API_ONLY[command]
    for name, option in options.items():
        keyword = keywords.get(RENAMED.get(name, name))
        if keyword is not None and option.default is not inspect.Parameter.empty:
            assert keyword.default == option.default, name
    hints = typing.get_type_hints(getattr(msbench, command))
    assert all(keywords[k].kind is inspect.Parameter.KEYWORD_ONLY for k in hints if k in named and
               keywords[k].default is not inspect.Parameter.empty)  # fmt: skip


def test_score_of_a_list_of_dicts_equals_the_command_line_json(hyp_file: Path):
    done = msbench_cli("score", "--ref", str(STM), "--hyp", str(hyp_file), "--json")
    assert done.returncode == 0, done.stderr
    shell = json.loads(done.stdout)
    python = msbench.score(str(STM), hypothesis_dicts()).to_dict()
    # S, D, and a swapped 3-word utterance (3 deletions and 3 insertions under cpWER only)
    assert shell["cpwer"]["errors"] == 8 and shell["wer"]["errors"] == 2
    assert python["read"]["hyp"] == {"format": "seglst (list of dicts)", "chosen_by": "object",
                                     "speakers": 2, "segments": len(hypothesis_dicts())}  # fmt: skip
    assert {k: v for k, v in python.items() if k != "read"} == {
        k: v for k, v in shell.items() if k != "read"
    }
    assert msbench.score(STM, hyp_file).to_dict() == shell  # a path, as the command reads it


@pytest.mark.extras  # lhotse's own objects (the core run reads lhotse manifests: tests/core)
def test_meeteval_seglst_lhotse_supervisions_and_segments_score_alike(hyp_file: Path):
    from lhotse import SupervisionSegment, SupervisionSet
    from meeteval.io import SegLST

    expected = msbench.score(STM, hyp_file)
    rows = hypothesis_dicts()
    supervisions = [
        SupervisionSegment(id=f"s{k}", recording_id=r["session_id"], start=r["start_time"],
                           duration=round(r["end_time"] - r["start_time"], 6),
                           speaker=r["speaker"], text=r["words"])
        for k, r in enumerate(rows)
    ]  # fmt: skip
    for shape in (
        SegLST(rows),
        SupervisionSet.from_segments(supervisions),
        supervisions,
        read_segments(hyp_file),
    ):
        found = msbench.score(STM, shape)
        assert found == {**expected, "read": found["read"]}, type(shape).__name__
        assert found.rate("cpwer") == expected["cpwer"]["error_rate"]
    as_reference = msbench.score(SegLST([s.to_seglst() for s in read_segments(STM)]), hyp_file)
    assert as_reference["cpwer"] == expected["cpwer"]


def test_a_pyannote_annotation_gives_der_equal_to_pyannote_metrics():
    from pyannote.core import Annotation, Segment
    from pyannote.metrics.diarization import DiarizationErrorRate

    reference, hypothesis = Annotation(uri="sample"), Annotation(uri="sample")
    for s in read_segments(RTTM):
        reference[Segment(s.start_time, s.end_time)] = s.speaker
    for k, s in enumerate(read_segments(RTTM)):  # the sample with its turns shifted and relabelled
        hypothesis[Segment(s.start_time + 0.3, s.end_time + 0.1)] = "AB"[k % 2]
    found = msbench.der(reference, hypothesis, collar=0.0)
    metric = DiarizationErrorRate(collar=0.0, skip_overlap=False)
    assert found.error_rate == pytest.approx(metric(reference, hypothesis), abs=1e-9)
    report = msbench.score(reference, hypothesis, collar=0.0)
    assert report["cpwer"] is None and "speaker times only" in " ".join(report.notes)


def test_results_are_values_that_add(hyp_file: Path):
    one = msbench.score(STM, hyp_file)
    two = one + one
    assert two.rate("cpwer") == one.rate("cpwer") and two["cpwer"]["errors"] == 16
    assert msbench.cpwer(STM, hyp_file) + msbench.cpwer(STM, hyp_file) == two.total.words.cpwer
    assert msbench.der(STM, hyp_file).error_rate == one["der"]["error_rate"]
    assert msbench.wer(STM, hyp_file).errors == one["wer"]["errors"]
    assert msbench.tcpwer(STM, hyp_file).errors == one["tcpwer"]["errors"]
    frame = one.to_frame()
    assert list(frame.index) == ["sample"] and frame.loc["sample", "cp_errors"] == 8
    assert one.session("sample").to_dict()["cpwer"] == one["cpwer"]
    with pytest.raises(KeyError, match="sessions: sample"):
        one.session("other")
    with pytest.raises(KeyError, match="metrics: der, der_collar0, cpwer"):
        one.rate("CPWER")
    assert "cpwer=0.0988" in repr(one) and "cpwer" in str(one)


def test_a_bad_entry_is_named(hyp_file: Path):
    rows = hypothesis_dicts()
    rows[1]["end_time"] = rows[1]["start_time"] - 1
    with pytest.raises(msbench.api.inputs.InputError, match="segment 1: negative-length"):
        msbench.score(STM, rows)
    with pytest.raises(msbench.api.inputs.InputError, match="no reference or hypothesis"):
        msbench.score(STM, {"session_id": "x"})


def test_sessions_scores_one_unit_against_a_whole_reference_file(tmp_path: Path):
    """meeteval's --regex: the other sessions of the reference are not charged as deletions."""
    stm = tmp_path / "all.stm"  # every demo clip's words in one reference file
    stm.write_text("".join(p.read_text(encoding="utf-8") for p in
                           sorted((DEMO / "ami/annotations/words").glob("*.stm"))), encoding="utf-8")  # fmt: skip
    sessions = sorted({s.session_id for s in read_segments(stm)})
    assert len(sessions) > 5
    one = [s.to_seglst() for s in read_segments(stm) if s.session_id == sessions[0]]
    (tmp_path / "hyp.json").write_text(json.dumps(one), encoding="utf-8")
    whole = msbench.score(stm, tmp_path / "hyp.json")
    assert whole.rate("cpwer") > 0.5  # every other session counted as deletions
    kept = msbench.score(stm, tmp_path / "hyp.json", sessions=sessions[0])
    assert kept.rate("cpwer") == 0.0 and f"1 of {len(sessions)} sessions" in kept.notes[0]
    done = msbench_cli("score", "--ref", str(stm), "--hyp", str(tmp_path / "hyp.json"),
                       "--sessions", sessions[0], "--json")  # fmt: skip
    assert json.loads(done.stdout)["cpwer"]["error_rate"] == 0.0


def test_python_m_quiet_and_verbose(hyp_file: Path):
    version = msbench_cli("--version")
    assert version.returncode == 0 and "msbench-toolkit" in version.stdout
    quiet = msbench_cli("score", "--ref", str(STM), "--hyp", str(hyp_file), "--quiet")
    assert quiet.returncode == 0 and quiet.stderr == "" and json.loads(quiet.stdout)["cpwer"]
    loud = msbench_cli("score", "--ref", str(STM), "--hyp", str(hyp_file), "--verbose")
    assert "scoring session 'sample' (1 of 1)" in loud.stderr and "ref: read as stm" in loud.stderr
    plain = msbench_cli("score", "--ref", str(STM), "--hyp", str(hyp_file))
    assert "ref: read as stm" in plain.stderr and "scoring session" not in plain.stderr
    bad = msbench_cli("--quiet", "score", "--ref", str(STM), "--hyp", str(STM) + ".missing")
    assert bad.returncode == 2 and "error" in bad.stderr


def test_a_missing_extra_is_named_in_one_line(monkeypatch, capsys):
    """A module of an extra this install left out: one line naming the extra, exit 2 (the core
    install's own run, tests/core/, meets the real missing modules)."""
    import functools

    from msbench import cli

    real = cli.stage_function("describe")

    @functools.wraps(real)  # the command's options, parsed as usual
    def needs_lhotse(**_: object) -> None:
        raise ModuleNotFoundError("No module named 'lhotse'", name="lhotse")

    monkeypatch.setattr(cli, "stage_function", lambda command: needs_lhotse)
    assert cli.main(["describe", "--annotations", "x.rttm"]) == 2
    said = capsys.readouterr().err.strip().splitlines()
    assert said == [
        "msbench describe: needs lhotse, which the core install leaves out (lhotse exports): "
        "pip install 'msbench-toolkit[lhotse]'"
    ]


def test_the_foreign_msbench_is_recognised(tmp_path: Path):
    """The registry's unrelated `msbench` (a marketstore benchmark) installed beside this one."""
    info = tmp_path / "msbench-1.0.8.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: msbench\nVersion: 1.0.8\n"
        "Summary: Benchmarking tool for marketstore\n"
    )
    script = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r}); "
        "from msbench.extras import foreign_msbench; print(foreign_msbench())"
    )
    said = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True).stdout
    assert "marketstore" in said and "pip uninstall msbench" in said
    assert "msbench-toolkit" in said
