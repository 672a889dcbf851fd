"""`msbench export` on the demo run, each format read back by the library that reads it."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile

from msbench.io.registry import OUTPUT_FORMATS

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")  # made once per worker, however xdist orders the tests
def exported(demo_run: Path) -> Path:
    """The demo run with its exports (the demo config asks for all four formats); the tests
    read it and write elsewhere."""
    assert (demo_run / "results/export/README.md").is_file()
    return demo_run


def benchmark_rows(run: Path) -> list[dict[str, str]]:
    with (run / "results/manifests/benchmark.csv").open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_lhotse_validates_loads_and_plays_the_units_samples(exported: Path):
    from lhotse import CutSet, RecordingSet, SupervisionSet
    from lhotse.qa import validate_recordings_and_supervisions

    folder = exported / "results/export/lhotse"
    recordings = RecordingSet.from_file(folder / "recordings.jsonl.gz")
    supervisions = SupervisionSet.from_file(folder / "supervisions.jsonl.gz")
    validate_recordings_and_supervisions(recordings, supervisions)
    assert {r.id for r in recordings} == {r["recording_id"] for r in benchmark_rows(exported)}
    first = next(iter(supervisions))
    assert first.custom is not None and {"profile", "r_ov", "overlap_ratio"} <= set(first.custom)
    cuts = CutSet.from_file(folder / "cuts.jsonl.gz")
    units = list(csv.DictReader((exported / "results/units/units.csv").open(encoding="utf-8")))
    assert sorted(c.id for c in cuts) == sorted(u["unit_id"] for u in units)
    for cut in cuts:
        expected, _ = soundfile.read(
            exported / "results/units/audio" / f"{cut.id}.flac", dtype="float32"
        )
        assert np.array_equal(cut.load_audio()[0], expected), cut.id
        assert all(0 <= s.start < cut.duration for s in cut.supervisions)


def test_the_activity_read_back_by_msbenchs_lhotse_adapter_gives_the_benchmarks_axes(
    exported: Path, tmp_path: Path
):
    """Speakers, overlap ratio and the turn-interval q25, exactly as the benchmark states them."""
    rows = benchmark_rows(exported)
    uem = tmp_path / "scored.uem"
    lines = []
    for row in rows:
        spans = (
            json.loads(row["scored_spans"])
            if row["scored_spans"]
            else [[0.0, float(row["duration_seconds"])]]
        )
        lines += [f"{row['recording_id']} 1 {a} {b}\n" for a, b in spans]
    uem.write_text("".join(lines))
    activity = exported / "results/export/lhotse/activity.jsonl.gz"
    done = subprocess.run(
        [sys.executable, "-m", "msbench.cli", "describe", "--format", "lhotse", "--uem", str(uem),
         "--annotations", str(activity)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    described = {d["session_id"]: d for d in map(json.loads, done.stdout.splitlines())}
    for row in rows:
        found = described[row["recording_id"]]
        assert found["num_speakers"] == int(row["num_speakers"]), row["recording_id"]
        assert found["overlap_ratio"] == float(row["overlap_ratio"]), row["recording_id"]
        q25 = float(row["speaker_switch_q25"]) if row["speaker_switch_q25"] else None
        assert found["speaker_switch_q25"] == q25, row["recording_id"]


def test_lhotses_kaldi_importer_reads_the_data_directory_back(exported: Path):
    from lhotse.kaldi import load_kaldi_data_dir

    folder = exported / "results/export/kaldi"
    recordings, supervisions, _ = load_kaldi_data_dir(folder, sampling_rate=16000)
    assert supervisions is not None
    utterances = list(
        csv.DictReader((exported / "results/manifests/utterances.csv").open(encoding="utf-8"))
    )
    kept = {r["recording_id"] for r in benchmark_rows(exported)}
    expected = sorted(
        (u["recording_id"], u["speaker"], float(u["start_time"]), float(u["end_time"]), " ".join(u["words"].split()))
        for u in utterances if u["recording_id"] in kept
    )  # fmt: skip
    found = sorted(
        (s.recording_id, s.speaker, s.start, round(s.end, 6), s.text or "") for s in supervisions
    )
    assert found == expected
    assert {r.id for r in recordings} == kept
    assert (folder / "spk2utt").read_text().count("\n") == len({e[1] for e in expected})


@pytest.mark.parametrize("metric, prefix", [("cpwer", "cp"), ("tcpwer", "tcp")])
def test_meeteval_wer_on_the_export_equals_msbench_evaluate_unit_by_unit(
    exported: Path, tmp_path: Path, metric: str, prefix: str
):
    """`meeteval-wer cpwer` and `tcpwer`, the command line as a user runs it, on the exported
    references, UEM and the baseline's converted outputs (both normalised with the run's
    tokenizer, as msbench scores them): msbench's error count and length for every unit."""
    folder = exported / "results/export/seglst"
    command = [
        str(Path(sys.executable).parent / "meeteval-wer"), metric,
        "-r", str(folder / "normalised/references.seglst.json"),
        "-h", str(folder / "normalised/baseline.seglst.json"),
        "--uem", str(folder / "units.uem"),
        "--per-reco-out", str(tmp_path / "per_reco.json"), "--average-out", str(tmp_path / "avg.json"),
    ] + (["--collar", "5"] if metric == "tcpwer" else [])  # fmt: skip
    subprocess.run(command, check=True, capture_output=True, text=True)
    per_unit = json.loads((tmp_path / "per_reco.json").read_text())
    with (exported / "results/evaluation/baseline/unit_scores.csv").open(encoding="utf-8") as f:
        scored = [u for u in csv.DictReader(f) if u["status"] != "excluded"]
    assert scored
    for unit in scored:
        found = per_unit[unit["unit_id"]]
        assert (found["errors"], found["length"]) == (
            int(unit[f"{prefix}_errors"]),
            int(unit[f"{prefix}_length"]),
        ), unit["unit_id"]


def test_the_stm_references_are_the_seglst_ones(exported: Path):
    import meeteval

    folder = exported / "results/export/seglst"
    stm = meeteval.io.STM.load(folder / "references.stm").to_seglst()
    seglst = meeteval.io.SegLST.load(folder / "references.seglst.json")

    def key(s):
        return (
            s["session_id"],
            float(s["start_time"]),
            s["speaker"].replace(" ", "_"),
            s["words"],
        )

    assert sorted(map(key, stm)) == sorted(map(key, seglst))


@pytest.mark.parametrize(
    "licence", ["CC BY-NC-ND 4.0", "LDC User Agreement for Non-Members", "CC BY-NC4.0"]
)
def test_audio_under_a_licence_off_the_allow_list_stays_out_unless_asked(
    exported: Path, tmp_path: Path, licence: str
):
    """The benchmark's units and the probe shard's clips alike (issue 48: "research use only",
    an LDC agreement or "CC BY-NC4.0" shipped their audio; the probe shard never asked)."""
    from datasets import load_dataset

    sheet = tmp_path / "datasets.tsv"
    text = (exported / "resources/demo/datasets.tsv").read_text()
    sheet.write_text(text.replace("\tCC BY 4.0\t", f"\t{licence}\t"))
    for flag, kept in (([], False), (["--include-restricted-audio"], True)):
        out = tmp_path / ("with" if kept else "without")
        subprocess.run(
            [sys.executable, "-m", "msbench.cli", "export", "--to", "hf", "--out", str(out),
             "--sheet", str(sheet), "--probes", str(exported / "results/probes"), *flag],
            cwd=exported, check=True, capture_output=True, text=True,
        )  # fmt: skip
        rows = load_dataset(str(out / "hf/benchmark"), split="test", cache_dir=str(out / "cache"))
        ami = [r for r in rows if r["source"] == "ami"]
        assert ami and all((r["audio"] is not None) == kept for r in ami)
        assert all(r["audio"] is not None for r in rows if r["source"] != "ami")  # MIT: allowed
        probes = load_dataset(str(out / "hf/probes"), split="test", cache_dir=str(out / "pcache"))
        clips = [r for r in probes if r["source_corpus"] == "ami"]
        assert clips and all((r["audio"] is not None) == kept for r in clips)
        for card in (out / "hf/benchmark/README.md", out / "hf/probes/README.md"):
            said = card.read_text()
            assert "**Its audio is not redistributed**" in said and licence in said


def test_datasets_loads_the_benchmark_and_its_audio_is_the_units(exported: Path, tmp_path: Path):
    """(A fresh cache: datasets keys a local folder's cache by its name and may return another
    folder's rows.)"""
    from datasets import load_dataset

    folder = exported / "results/export/hf/benchmark"
    rows = load_dataset(str(folder), split="test", cache_dir=str(tmp_path / "cache"))
    units = list(csv.DictReader((exported / "results/units/units.csv").open(encoding="utf-8")))
    assert sorted(rows["unit_id"]) == sorted(u["unit_id"] for u in units)
    for row in rows:
        expected, rate = soundfile.read(exported / "results/units/audio" / f"{row['unit_id']}.flac")
        assert row["audio"]["sampling_rate"] == rate == 16000
        assert np.array_equal(np.asarray(row["audio"]["array"]), expected), row["unit_id"]
        assert json.loads(row["conditions"])["profile"].count("-") == 4
    card = (folder / "README.md").read_text()
    assert card.startswith("---\nlicense: other") and "task_categories" in card
    assert "- ami: CC BY 4.0" in card and "![coverage](coverage.png)" in card


def test_hears_build_input_on_the_exported_probes_gives_msbenchs_runner_file(
    exported: Path, tmp_path: Path
):
    """HEAR's own steps (load_dataset pointed at the folder, not the Hub) give every field of
    hear_input.jsonl, and the audio it writes is the item's."""
    from datasets import load_dataset

    from msbench.textio import read_jsonl
    from tests.helpers.hear_rules import build_input_rows

    loaded = load_dataset(str(exported / "results/export/hf/probes"), split="test",
                          cache_dir=str(tmp_path / "cache"))  # fmt: skip
    rows = build_input_rows(loaded, str(tmp_path))
    expected = list(read_jsonl(exported / "results/probes/hear_input.jsonl"))
    assert len(rows) == len(expected) > 0
    for row, mine in zip(rows, expected, strict=True):
        assert {k: v for k, v in row.items() if k != "audio_path"} == {
            k: v for k, v in mine.items() if k != "audio_path"
        }
        ours, _ = soundfile.read(exported / "results/probes" / mine["audio_path"])
        written, _ = soundfile.read(row["audio_path"])
        assert np.array_equal(ours, written), row["id"]


@pytest.mark.parametrize("output_format", [f for f in OUTPUT_FORMATS if f != "seglst"])
def test_the_baseline_written_in_each_output_format_evaluates_as_its_seglst(
    exported: Path, tmp_path: Path, output_format: str
):
    """baseline.output_format: each format msbench writes and scores (the registry's: STM,
    WebVTT voice spans); evaluated, every unit's scores equal those of its SegLST."""
    from msbench.baseline.run import write_output

    written = tmp_path / output_format
    written.mkdir()
    outputs = sorted((exported / "results/systems/baseline").glob("*__*.json"))
    for path in outputs:
        write_output(written, path.stem, json.loads(path.read_text()), output_format)
    assert len(list(written.iterdir())) == len(outputs)
    subprocess.run(
        [sys.executable, "-m", "msbench.cli", "evaluate", "--outputs", str(written),
         "--system-id", "baseline", "--units", "results/units/units.csv", "--benchmark", "results/manifests/benchmark.csv", "--utterances",
         "results/manifests/utterances.csv", "--out-dir", str(tmp_path / "eval"),
         "--config", "resources/demo/config.yaml"],
        cwd=exported, check=True, capture_output=True, text=True,
    )  # fmt: skip
    ours = (tmp_path / "eval/unit_scores.csv").read_text().splitlines()
    theirs = (exported / "results/evaluation/baseline/unit_scores.csv").read_text().splitlines()
    assert len(outputs) > 0 and ours == theirs


def _manifest_copies(exported: Path, target: Path) -> dict[str, Path]:
    """The run's export inputs copied (without their written-records: edited on purpose here)."""
    import shutil

    target.mkdir(parents=True)
    copies = {}
    for name in ("benchmark.csv", "recordings.csv", "utterances.csv"):
        copies[name] = shutil.copy2(exported / "results/manifests" / name, target / name)
    copies["units.csv"] = shutil.copy2(exported / "results/units/units.csv", target / "units.csv")
    copies["audio"] = Path(shutil.copytree(exported / "results/units/audio", target / "audio"))
    return copies


def _export(
    exported: Path, copies: dict[str, Path], out: Path, *formats: str
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "msbench.cli", "export", "--to", *[f for f in formats if f != "--force"],
         *(["--force"] if "--force" in formats else []), "--out", str(out),
         "--benchmark", str(copies["benchmark.csv"]), "--recordings", str(copies["recordings.csv"]),
         "--utterances", str(copies["utterances.csv"]), "--units", str(copies["units.csv"]),
         "--unit-audio", str(copies["audio"])],
        cwd=exported, capture_output=True, text=True, check=False,
    )  # fmt: skip


def test_one_id_sanitiser_for_every_writer_with_a_note(exported: Path, tmp_path: Path):
    """A unit id and a speaker holding a space: every format writes them with '_' (SegLST and the
    UEM kept the space, so the README's meeteval command read five fields), and the README and
    the terminal list each id changed."""
    copies = _manifest_copies(exported, tmp_path / "in")
    unit = next(csv.DictReader(copies["units.csv"].open(encoding="utf-8")))["unit_id"]
    spaced = unit.replace("__", " ")
    for name in ("units.csv",):
        copies[name].write_text(copies[name].read_text().replace(unit, spaced))
    (copies["audio"] / f"{unit}.flac").rename(copies["audio"] / f"{spaced}.flac")
    speaker = next(csv.DictReader(copies["utterances.csv"].open(encoding="utf-8")))["speaker"]
    copies["utterances.csv"].write_text(
        copies["utterances.csv"].read_text().replace(speaker, speaker + " x")
    )
    done = _export(exported, copies, tmp_path / "out", "seglst", "kaldi", "lhotse")
    assert done.returncode == 0, done.stderr
    assert "id(s) hold whitespace, exported with '_'" in done.stderr
    out = tmp_path / "out"
    readme = (out / "README.md").read_text()
    assert f"`{spaced}` -> `{spaced.replace(' ', '_')}`" in readme and f"`{speaker} x`" in readme
    assert all(
        len(line.split()) == 4 for line in (out / "seglst/units.uem").read_text().splitlines()
    )
    seglst = json.loads((out / "seglst/references.seglst.json").read_text())
    assert not any(" " in s["session_id"] or " " in s["speaker"] for s in seglst)
    assert spaced.replace(" ", "_") in {s["session_id"] for s in seglst}
    assert f"{speaker}_x" in (out / "kaldi/utt2spk").read_text()
    meeteval = subprocess.run(
        [str(Path(sys.executable).parent / "meeteval-wer"), "cpwer", "-r", "seglst/references.seglst.json",
         "-h", "seglst/references.seglst.json", "--uem", "seglst/units.uem"],
        cwd=out, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert meeteval.returncode == 0, meeteval.stderr[-800:]


def test_an_export_into_a_used_folder_replaces_it_whole(exported: Path, tmp_path: Path):
    copies = _manifest_copies(exported, tmp_path / "in")
    out = tmp_path / "out"
    assert _export(exported, copies, out, "kaldi").returncode == 0
    again = _export(exported, copies, out, "seglst")
    assert (
        again.returncode == 0
        and "held an earlier export (2 entries): replaced by this one" in again.stderr
    )
    assert sorted(p.name for p in out.iterdir()) == [".msbench-output.json", "README.md", "seglst"]
    assert not any(p.name.startswith(".out.") for p in tmp_path.iterdir())


def test_export_never_deletes_a_users_files(exported: Path, tmp_path: Path):
    """A folder holding a user's files, one with a user's file inside an earlier export, and a
    path that is a file: each refused in one line naming what is there, nothing deleted;
    --force deletes them, naming them (issue 59)."""
    copies = _manifest_copies(exported, tmp_path / "in")
    users = tmp_path / "users"
    (users / "mine").mkdir(parents=True)
    (users / "notes.txt").write_text("mine")
    (users / "mine" / "data.txt").write_text("mine too")
    refused = _export(exported, copies, users, "kaldi")
    assert refused.returncode != 0
    said = refused.stderr.strip().splitlines()[-1]
    assert "holds 2 file(s) msbench did not write there (mine/data.txt, notes.txt)" in said, said
    assert "--force" in said and "Traceback" not in refused.stderr
    assert (users / "notes.txt").read_text() == "mine" and (users / "mine/data.txt").exists()
    earlier = tmp_path / "earlier"
    assert _export(exported, copies, earlier, "kaldi").returncode == 0
    (earlier / "kaldi" / "feats.scp").write_text("a user's features\n")
    inside = _export(exported, copies, earlier, "kaldi")
    assert inside.returncode != 0 and "kaldi/feats.scp" in inside.stderr
    assert (earlier / "kaldi" / "feats.scp").exists()
    a_file = tmp_path / "results.txt"
    a_file.write_text("a file")
    assert _export(exported, copies, a_file, "kaldi").returncode != 0
    assert a_file.read_text() == "a file"
    forced = _export(exported, copies, users, "kaldi", "--force")
    assert forced.returncode == 0 and "--force: deleting what" in forced.stderr
    assert not (users / "notes.txt").exists() and (users / "kaldi").is_dir()


def test_missing_audio_is_one_line_and_nothing_is_written(exported: Path, tmp_path: Path):
    copies = _manifest_copies(exported, tmp_path / "in")
    gone = sorted(copies["audio"].glob("*.flac"))[0]
    gone.unlink()
    done = _export(exported, copies, tmp_path / "out", "lhotse", "kaldi")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"1 audio file(s) the export reads are missing: {gone}" in done.stderr
    assert not (tmp_path / "out").exists()
