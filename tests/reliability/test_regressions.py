"""Bad inputs that were already handled clearly, kept so: each case beside a good session,
the message naming the file, the place and a fix, and recordings in = rows out."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile

from msbench.errors import ConfigError
from msbench.ingest.sheet import read_dataset_sheet
from msbench.ingest.source import ingest_source
from tests.helpers.fixtures import AISHELL4_TEXTGRID, folder_source, rttm_line, write_tone

GOOD = rttm_line("good", 0, 2, "A") + rttm_line("good", 2.5, 2, "B")


def run_rttm(folder: Path, bad_lines: str, audio: bool = True) -> tuple[list, dict[str, str]]:
    """A source of a good and a bad session; returns (accepted ids, reasons by session)."""
    (folder / "x.rttm").write_text(GOOD + bad_lines, encoding="utf-8")
    write_tone(folder / "good.wav", 6.0)
    if audio:
        write_tone(folder / "bad.wav", 6.0)
    spec = folder_source(folder, annotations="x.rttm")
    result = ingest_source(spec)
    assert all(r.recording_id for r in result.rejections)
    reasons = {r.recording_id.split("::")[1]: r.reason for r in result.rejections}
    return [r.recording.session_id for r in result.recordings], reasons


@pytest.mark.parametrize(
    ("bad", "expected"),
    [
        (rttm_line("bad", 3, -1, "A"), "x.rttm:line 3: negative-length segment"),
        ("SPEAKER bad 1 nan 1.0 <NA> <NA> A <NA> <NA>\n", "x.rttm:line 3: non-finite time"),
        (
            "SPEAKER bad 1 -0.5 1.0 <NA> <NA> A <NA> <NA>\n",
            "x.rttm:line 3: segment starts before 0 s",
        ),
        ("SPEAKER bad 1 zero 1.0 <NA> <NA> A <NA> <NA>\n", "x.rttm:line 3: tbeg/tdur 'zero'"),
        (rttm_line("bad", 0, 1, "<NA>"), "x.rttm:line 3: empty speaker label"),
    ],
)
def test_bad_segment_times_and_labels_reject_their_session(tmp_path: Path, bad: str, expected: str):
    accepted, reasons = run_rttm(tmp_path, bad)
    assert accepted == ["good"] and expected in reasons["bad"]


def test_odd_speaker_labels_are_kept_as_written(tmp_path: Path):
    accepted, reasons = run_rttm(
        tmp_path,
        rttm_line("bad", 0, 1, "Spk-01_ü") + rttm_line("bad", 1.5, 1, "spk 02".replace(" ", "_")),
    )
    assert accepted == ["bad", "good"] and not reasons


def test_a_shuffled_crlf_bom_rttm_reads_like_a_clean_one(tmp_path: Path):
    lines = (GOOD + rttm_line("bad", 3, 1, "B") + rttm_line("bad", 0, 2, "A")).splitlines()
    (tmp_path / "x.rttm").write_bytes(
        b"\xef\xbb\xbf" + "\r\n".join(reversed(lines)).encode() + b"\r\n"
    )
    write_tone(tmp_path / "good.wav", 6.0)
    write_tone(tmp_path / "bad.wav", 6.0)
    spec = folder_source(tmp_path, annotations="x.rttm")
    result = ingest_source(spec)
    assert sorted(r.recording.session_id for r in result.recordings) == ["bad", "good"]
    bad = next(r for r in result.recordings if r.recording.session_id == "bad")
    assert [(s.speaker, s.start_time) for s in bad.segments] == [("A", 0.0), ("B", 3.0)]


def test_utf16_without_bom_is_detected(tmp_path: Path):
    (tmp_path / "M.TextGrid").write_bytes(AISHELL4_TEXTGRID.encode("utf-16-le"))
    write_tone(tmp_path / "M.wav", 13.0)
    spec = folder_source(tmp_path, "textgrid", "*.TextGrid", name="a")
    (item,) = ingest_source(spec).recordings
    assert {s.speaker for s in item.segments} == {"005", "006"}


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        ("missing", "audio file not found"),
        ("zero_bytes", "unreadable or corrupt audio header"),
        ("header_only", "audio file holds no samples"),
        ("truncated", "re-encode or re-download"),
    ],
)
def test_damaged_audio_rejects_its_recording(tmp_path: Path, make: str, expected: str):
    (tmp_path / "x.rttm").write_text(
        GOOD + rttm_line("bad", 0, 2, "A") + rttm_line("bad", 2.5, 2, "B")
    )
    write_tone(tmp_path / "good.wav", 6.0)
    bad = tmp_path / "bad.flac"
    if make == "zero_bytes":
        bad.write_bytes(b"")
    elif make == "header_only":  # a WAV header and no sample
        soundfile.write(tmp_path / "bad.wav", np.zeros(0, dtype=np.float32), 16000)
    elif make == "truncated":
        soundfile.write(bad, 0.1 * np.random.default_rng(0).standard_normal(96000), 16000)
        bad.write_bytes(bad.read_bytes()[:4000])
    spec = folder_source(tmp_path, annotations="x.rttm", audio="{session}.*")
    result = ingest_source(spec)
    reasons = {r.recording_id.split("::")[1]: r.reason for r in result.rejections}
    assert [r.recording.session_id for r in result.recordings] == ["good"]
    assert expected in reasons["bad"] and str(tmp_path) in reasons["bad"]


def test_spaces_in_paths(tmp_path: Path):
    folder = tmp_path / "my corpus" / "audio files"
    folder.mkdir(parents=True)
    accepted, reasons = run_rttm(
        folder, rttm_line("bad", 0, 2, "A") + rttm_line("bad", 2.5, 2, "B")
    )
    assert accepted == ["bad", "good"] and not reasons


def test_textgrid_point_tiers_xmin_above_zero_and_empty_tier_names(tmp_path: Path):
    grid = AISHELL4_TEXTGRID.replace('name = "006"', 'name = ""').replace(
        "xmin = 0\nxmax = 12.5", "xmin = 1.0\nxmax = 12.5", 1
    )
    (tmp_path / "M.TextGrid").write_text(grid)
    write_tone(tmp_path / "M.wav", 13.0)
    spec = folder_source(tmp_path, "textgrid", "*.TextGrid", name="a")
    result = ingest_source(spec)
    # an empty tier name is an empty speaker label: the session is rejected, naming the tier
    (bad,) = result.rejections
    assert "tier 2 '' interval 2" in bad.reason and "empty speaker label" in bad.reason


def test_invalid_chime_json_names_the_place(tmp_path: Path):
    (tmp_path / "S02.json").write_text(
        '[{"session_id": "S02", "speaker": "P05", "start_time": "0:00:01.00",'
    )
    write_tone(tmp_path / "S02.wav", 3.0)
    spec = folder_source(tmp_path, "chime", "*.json")
    (bad,) = ingest_source(spec).rejections
    assert (
        bad.recording_id == "c::S02" and "S02.json" in bad.reason and "invalid JSON" in bad.reason
    )


def test_lhotse_supervision_past_the_recording_end_is_clipped_or_rejected(tmp_path: Path):
    from lhotse import Recording, RecordingSet, SupervisionSegment, SupervisionSet
    from lhotse.audio import AudioSource

    write_tone(tmp_path / "R1.wav", 6.0)
    recording = Recording(
        id="R1",
        sources=[AudioSource(type="file", channels=[0], source=str(tmp_path / "R1.wav"))],
        sampling_rate=16000,
        num_samples=96000,
        duration=6.0,
    )
    RecordingSet.from_recordings([recording]).to_file(tmp_path / "recordings.jsonl")
    supervisions = [
        SupervisionSegment(id="a", recording_id="R1", start=0, duration=2, speaker="A"),
        SupervisionSegment(id="b", recording_id="R1", start=3, duration=9, speaker="B"),
    ]
    SupervisionSet.from_segments(supervisions).to_file(tmp_path / "supervisions.jsonl")
    spec = folder_source(
        tmp_path, "lhotse", "supervisions.jsonl", None, "l", recordings="recordings.jsonl"
    )
    (bad,) = ingest_source(spec).rejections
    assert "segment ends at 12.000 s" in bad.reason and "ingest.end_tolerance_seconds" in bad.reason


@pytest.mark.parametrize(
    ("sheet", "expected"),
    [
        (
            "name\tadapter\tannotations\nx\tnope\ta/*.rttm\n",
            "line 2: adapter: 'nope' is not allowed",
        ),
        ("name\tadapter\nx\trttm\n", "line 2: (top level): 'annotations' is a required property"),
        ("name\tadapter\tannotations\tcolour\nx\trttm\ta\tred\n", "unknown column(s) ['colour']"),
        (
            "name\tadapter\tannotations\tchannel\nx\trttm\ta\tleft\n",
            "line 2: channel must be an integer",
        ),
        (
            "name\tadapter\tannotations\nx\trttm\ta\nx\trttm\tb\n",
            "source name(s) listed twice: ['x']",
        ),
        ("# only comments\n", "the dataset sheet lists no source"),
    ],
)
def test_sheet_errors_name_the_line(tmp_path: Path, sheet: str, expected: str):
    path = tmp_path / "datasets.tsv"
    path.write_text(sheet)
    with pytest.raises(ConfigError) as caught:
        read_dataset_sheet(path)
    assert expected in str(caught.value) and str(path) in str(caught.value)


def test_a_sheet_written_by_a_spreadsheet_reads(tmp_path: Path):
    path = tmp_path / "datasets.tsv"
    path.write_bytes("\ufeffname\tadapter\tannotations\r\nx\trttm\ta/*.rttm\r\n".encode())
    (spec,) = read_dataset_sheet(path)
    assert (spec.name, spec.line) == ("x", 2) and json.dumps(spec.annotations) == '"a/*.rttm"'
