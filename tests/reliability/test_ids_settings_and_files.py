"""Round three, the rest: ids and names that stay unique, settings refused with file and line,
intermediate files checked when read, folders and links in the way, a runaway output.

Each case failed (a traceback, a silent change, or a wrong value) before its fix.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from msbench.catalog import KEPT
from msbench.config import check_system_ids, read_yaml
from msbench.errors import ConfigError, InputError
from msbench.ingest.sheet import read_dataset_sheet
from msbench.ingest.source import IngestSettings, ingest_source
from msbench.ingest.source_report import ingest_whole_source
from msbench.tables import read_rows, write_rows
from msbench.textio import read_jsonl, write_jsonl
from tests.helpers.fixtures import rttm_line
from tests.reliability.test_bad_input_classes import source

TWO = "".join(rttm_line(s, 0.0, 2.0, "A") + rttm_line(s, 2.5, 2.0, "B") for s in ("s1", "s2"))


def msbench(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "msbench.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, check=False, cwd=cwd)


# --- the dataset sheet ----------------------------------------------------------------------


def test_a_source_name_with_a_double_underscore_is_refused_so_unit_names_stay_unique(
    tmp_path: Path,
):
    """`x` + session `y__s1` and `x__y` + session `s1` would both be unit `x__y__s1`."""
    sheet = tmp_path / "datasets.tsv"
    sheet.write_text("name\tadapter\tannotations\nx\trttm\ta/*.rttm\nx__y\trttm\tb/*.rttm\n")
    with pytest.raises(ConfigError, match=r"datasets.tsv:line 3: source name 'x__y' holds '__'"):
        read_dataset_sheet(sheet)


def test_a_column_given_twice_in_the_sheet_is_refused_naming_the_line(tmp_path: Path):
    sheet = tmp_path / "datasets.tsv"
    sheet.write_text("# corpora\nname\tadapter\taudio\tannotations\taudio\nx\trttm\ta\tb\tc\n")
    with pytest.raises(ConfigError, match=r"datasets.tsv:line 2: column\(s\) \['audio'\] appear"):
        read_dataset_sheet(sheet)


def test_sessions_list_keeps_a_hash_inside_a_name_and_names_a_session_it_never_found(
    tmp_path: Path,
):
    (tmp_path / "a.rttm").write_text(TWO + rttm_line("s#3", 0.0, 2.0, "A"))
    (tmp_path / "keep.txt").write_text("s1  # the first\ns#3\nghost\n# a comment line\n")
    spec = source(tmp_path, "rttm", "a.rttm", sessions=str(tmp_path / "keep.txt"))
    result = ingest_whole_source(spec, IngestSettings())
    rows = {r.recording_id: r.reason for r in result.rejections}
    assert "corpus::s#3" in rows, rows  # kept by the list (its audio is missing: rejected)
    assert "is listed, but no annotation file" in rows["corpus::ghost"]
    assert [r.recording.session_id for r in result.recordings] == ["s1"]


# --- config files ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("selection:\n  max_hours: 1\nutility:\n  weights: {}\nselection:\n  min_hours: 0\n",
         r"line 5: key 'selection' is given twice in one block \(first at line 1\)"),
        ("scoring:\n  collar: 0.25\n  collar: 0.5\n", r"line 3: key 'collar' is given twice"),
        ("systems: [a, b\nscoring: {}\n", r"line 2, column 8: invalid YAML"),
        ("scoring:\n\tcollar: 1\n", r"line 2, column 1: invalid YAML"),
    ],
)  # fmt: skip
def test_a_config_file_with_a_repeated_key_or_bad_yaml_names_the_file_and_line(
    tmp_path: Path, text: str, expected: str
):
    path = tmp_path / "config.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=f"config.yaml:{expected}"):
        read_yaml(path)


@pytest.mark.parametrize(
    "systems, expected",
    [
        ([{"id": "a", "outputs": "x"}, {"id": "a", "outputs": "y"}], r"systems\[1\].id 'a' is also"),
        ([{"id": "baseline", "outputs": "x"}], r"built-in baseline's id"),
    ],
)  # fmt: skip
def test_two_systems_with_one_id_or_one_called_baseline_are_refused(
    systems: list[dict[str, str]], expected: str
):
    with pytest.raises(ConfigError, match=expected):
        check_system_ids({"systems": systems}, "config.yaml")


def test_the_workflow_refuses_a_config_file_with_a_repeated_key_before_it_runs(tmp_path: Path):
    repo = Path(__file__).resolve().parents[2]
    config = tmp_path / "config.yaml"
    text = (repo / "resources/demo/config.yaml").read_text()
    config.write_text(text + "\nselection:\n  max_hours: 1\n")
    done = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--cores", "1", "--configfile", str(config),
         "--replace-workflow-config"],
        capture_output=True, text=True, check=False, cwd=repo,
    )  # fmt: skip
    assert done.returncode != 0
    line = text.count("\n") + 2
    assert f"config.yaml:line {line}: key 'selection' is given twice" in done.stdout + done.stderr


# --- intermediate files ----------------------------------------------------------------------


def test_a_manifest_line_removed_by_hand_is_named_not_a_recording_that_vanishes(tmp_path: Path):
    path = tmp_path / "recordings.jsonl"
    write_jsonl(path, [{"recording_id": f"c::s{k}"} for k in range(5)])
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:2] + lines[3:]))
    with pytest.raises(InputError, match=r"changed since msbench wrote it \(4 lines, 5 written"):
        list(read_jsonl(path))
    table = tmp_path / "benchmark.csv"
    write_rows(KEPT, table, [{"recording_id": "c::s1"}, {"recording_id": "c::s2"}])
    table.write_bytes(table.read_bytes()[:-4])  # cut short
    with pytest.raises(InputError, match="--forcerun"):
        read_rows(KEPT, table)
    write_rows(KEPT, table, [{"recording_id": "c::s1"}])  # a new write: read again
    assert read_rows(KEPT, table) == [{"recording_id": "c::s1"}]


def test_empty_tables_and_files_in_the_way_are_one_line_each(tmp_path: Path):
    """An empty benchmark or characterized table, and a file where a folder goes: no traceback."""
    write_rows(KEPT, tmp_path / "benchmark.csv", [], ["recording_id", "duration_seconds"])
    write_rows(KEPT, tmp_path / "recordings.csv", [], ["recording_id"])
    write_rows(KEPT, tmp_path / "utterances.csv", [], ["recording_id"])
    (tmp_path / "results").write_text("a file, not a folder")
    write_jsonl(tmp_path / "characterized.jsonl", [])
    runs = {
        "selection chose no recording": msbench(
            "units", "--benchmark", str(tmp_path / "benchmark.csv"), "--recordings",
            str(tmp_path / "recordings.csv"), "--utterances", str(tmp_path / "utterances.csv"),
            "--out-dir", str(tmp_path / "units"),
        ),
        "every recording was rejected": msbench(
            "bin", "--features", str(tmp_path / "characterized.jsonl"), "--out",
            str(tmp_path / "labelled.jsonl"), "--space-out", str(tmp_path / "space.yaml"),
        ),
        "is a file where msbench writes a folder": msbench(
            "interaction", "--ingested", str(tmp_path / "characterized.jsonl"), "--out",
            str(tmp_path / "results" / "f" / "i.jsonl"), "--utterances", str(tmp_path / "u.csv"),
        ),
    }  # fmt: skip
    for expected, done in runs.items():
        assert done.returncode == 2, (expected, done.stderr[-800:])
        assert expected in done.stderr and "Traceback" not in done.stderr, done.stderr[-800:]


# --- files and folders a source lists --------------------------------------------------------


def test_a_symlink_loop_under_double_star_reads_each_file_once(tmp_path: Path):
    (tmp_path / "deep").mkdir()
    (tmp_path / "deep" / "a.rttm").write_text(TWO)
    os.symlink("..", tmp_path / "deep" / "loop")
    result = ingest_whole_source(source(tmp_path, "rttm", "**/*.rttm"), IngestSettings())
    assert sorted(r.recording.session_id for r in result.recordings) == ["s1", "s2"]
    assert [r.recording_id for r in result.rejections] == ["corpus::s3"]  # audio only
    assert any("other path(s) through symbolic links" in w for w in result.warnings)


def test_a_folder_at_an_audio_path_is_called_a_folder(tmp_path: Path):
    (tmp_path / "a.rttm").write_text(TWO)
    spec = source(tmp_path, "rttm", "a.rttm")
    (tmp_path / "audio" / "s2.wav").unlink()
    (tmp_path / "audio" / "s2.wav").mkdir()
    result = ingest_source(spec)
    reasons = {r.recording_id: r.reason for r in result.rejections}
    assert "is a folder, not an audio file" in reasons["corpus::s2"]
    assert [r.recording.session_id for r in result.recordings] == ["s1"]


def test_one_bad_line_of_a_lhotse_recordings_manifest_rejects_only_its_recording(tmp_path: Path):
    spec = source(tmp_path, "lhotse", "sup.jsonl", recordings=str(tmp_path / "rec.jsonl"))
    rows = []
    for session in ("s1", "s2"):
        audio = str(tmp_path / "audio" / f"{session}.wav")
        rows.append({"id": session, "num_samples": 160000, "sampling_rate": 16000,
                     "duration": 10.0, "channel_ids": [0],
                     "sources": [{"type": "file", "channels": [0], "source": audio}]})  # fmt: skip
    rows[1] = {"id": "s2", "sampling_rate": "sixteen"}  # s2's line is damaged
    (tmp_path / "rec.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows) + "{oops\n")
    sups = [{"id": f"{s}-{k}", "recording_id": s, "start": 2.5 * k, "duration": 2.0,
             "channel": 0, "speaker": "AB"[k], "text": "hi"} for s in ("s1", "s2") for k in (0, 1)]  # fmt: skip
    (tmp_path / "sup.jsonl").write_text("".join(json.dumps(s) + "\n" for s in sups))
    result = ingest_source(spec)
    assert [r.recording.session_id for r in result.recordings] == ["s1"]
    reasons = {r.recording_id: r.reason for r in result.rejections}
    assert "rec.jsonl:line 2: not a lhotse recording" in reasons["corpus::s2"]
    assert "line 3: invalid JSON" in " ".join(result.recordings[0].notes)


def test_a_source_that_cannot_be_read_at_all_is_one_rejection_and_the_stage_exits_0(
    tmp_path: Path,
):
    (tmp_path / "a.rttm").write_text(TWO)
    (tmp_path / "sessions").mkdir()  # the sessions list is a folder: the whole source fails
    sheet = tmp_path / "datasets.tsv"
    sheet.write_text(
        "name\tadapter\tannotations\taudio\tsessions\n"
        f"c\trttm\t{tmp_path}/a.rttm\t{tmp_path}/{{session}}.wav\t{tmp_path}/sessions\n"
    )
    done = msbench(
        "ingest", "--sheet", str(sheet), "--source", "c", "--out-dir", str(tmp_path / "o")
    )
    assert done.returncode == 0, done.stderr[-1500:]
    rows = list(read_jsonl(tmp_path / "o" / "rejected.jsonl"))
    assert [r["recording_id"] for r in rows] == ["c::*"]
    assert "source 'c' could not be ingested" in rows[0]["reason"]
    assert "sessions" in rows[0]["reason"] and not list(read_jsonl(tmp_path / "o/recordings.jsonl"))


@pytest.mark.parametrize("character", ["\x85", "\u2028", "\x9b"])
def test_a_session_id_with_a_line_breaking_or_c1_character_is_rejected(
    tmp_path: Path, character: str
):
    bad = f"s{character}x"
    (tmp_path / "a.seglst.json").write_text(json.dumps(
        [{"session_id": bad, "speaker": "A", "start_time": 0.0, "end_time": 2.0, "words": "hi"}]
    ))  # fmt: skip
    result = ingest_source(source(tmp_path, "seglst", "a.seglst.json"))
    assert not result.recordings
    assert any("control character" in r.reason for r in result.rejections)
