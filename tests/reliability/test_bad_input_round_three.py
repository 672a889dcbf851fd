"""Round three of bad input: an unreadable file, line-breaking characters, speaker labels.

Each case: the run goes on for every other session, and what was done is said.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from msbench.ingest.source import ingest_source
from msbench.io.read import read_segments
from msbench.records import Segment
from msbench.scoring.pipeline import score_pair
from tests.helpers.fixtures import rttm_line
from tests.reliability.test_bad_input_classes import notes_of, source

# --- round three: an unreadable file is a rejection, never the end of the run ----------------


def test_every_unreadable_annotation_file_is_reported_and_the_ingest_stage_exits_0(tmp_path: Path):
    """A folder named like an annotation, a symlink loop, damaged and fake .gz files: the stage
    writes its outputs (encodings.json says why each could not be read) and exits 0."""
    import os
    import subprocess
    import sys

    good = "".join(rttm_line(s, 0.0, 2.0, "A") + rttm_line(s, 2.5, 2.0, "B") for s in ("s1", "s2"))
    (tmp_path / "good.rttm").write_text(good)
    (tmp_path / "folder.rttm").mkdir()
    os.symlink(tmp_path / "loop.rttm", tmp_path / "loop.rttm")
    (tmp_path / "fake.rttm.gz").write_bytes(b"not gzip at all")
    packed = gzip.compress(
        (rttm_line("s3", 0.0, 2.0, "A") + rttm_line("s3", 2.5, 2.0, "B")).encode()
    )
    (tmp_path / "half.rttm.gz").write_bytes(packed[: len(packed) // 2])
    spec = source(tmp_path, "rttm", "*.rttm*")
    from msbench.ingest.source_report import annotation_encodings

    encodings = annotation_encodings(spec)
    assert encodings[str(tmp_path / "good.rttm")] == "utf-8"
    for name in ("folder.rttm", "loop.rttm", "fake.rttm.gz", "half.rttm.gz"):
        assert encodings[str(tmp_path / name)].startswith("unreadable: "), (name, encodings)
    sheet = tmp_path / "datasets.tsv"
    sheet.write_text(
        "name\tadapter\tannotations\taudio\tlanguage\n"
        f"corpus\trttm\t{tmp_path}/*.rttm*\t{tmp_path}/audio/{{session}}.wav\tEnglish\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "msbench.cli", "ingest", "--sheet", str(sheet), "--source",
         "corpus", "--out-dir", str(tmp_path / "out")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert (tmp_path / "out" / "encodings.json").exists()


@pytest.mark.parametrize("breaker", ["\u2028", "\u2029", "\x85", "\x0c", "\x1e"])
def test_a_line_breaking_character_in_a_word_survives_every_jsonl_and_csv_round_trip(
    tmp_path: Path, breaker: str
):
    """JSONL is written with U+2028, U+2029, U+0085 escaped and read split at newlines only;
    an STM transcript holding one is read as one line; a CSV field holding one reads back."""
    from msbench.catalog import KEPT
    from msbench.tables import read_rows, write_rows
    from msbench.textio import read_jsonl, write_jsonl

    word = f"hello{breaker}world"
    write_jsonl(tmp_path / "rows.jsonl", [{"words": word}, {"words": "next"}])
    text = (tmp_path / "rows.jsonl").read_text(encoding="utf-8")
    assert len(text.splitlines()) == 2 or breaker in "\x0c\x1e"  # no reader splits a record
    assert [r["words"] for r in read_jsonl(tmp_path / "rows.jsonl")] == [word, "next"]
    stm = tmp_path / "ref.stm"
    stm.write_text(f"s 1 A 0.0 2.0 {word} again\ns 1 B 2.5 4.0 yes\n", encoding="utf-8")
    segments = read_segments(stm, "stm")
    assert [s.speaker for s in segments] == ["A", "B"]  # one line, the character a space
    assert (segments[0].words or "").split() == ["hello", "world", "again"]
    write_rows(KEPT, tmp_path / "t.csv", [{"recording_id": word, "b": 1}], ("recording_id", "b"))
    assert read_rows(KEPT, tmp_path / "t.csv")[0]["recording_id"] == word


def test_speaker_labels_that_look_the_same_are_one_speaker_with_a_note(tmp_path: Path):
    """NFC / NFD spellings, a zero-width space, a trailing space: one speaker each, said."""
    nfc, nfd = "Zo\u00eb", "Zoe\u0308"
    lines = (
        rttm_line("s1", 0.0, 2.0, nfc) + rttm_line("s1", 2.5, 2.0, nfd)
        + rttm_line("s1", 5.0, 2.0, "B") + rttm_line("s1", 7.5, 1.0, "B\u200b")
    )  # fmt: skip
    (tmp_path / "a.rttm").write_text(lines, encoding="utf-8")
    result = ingest_source(source(tmp_path, "rttm", "a.rttm"))
    recording = next(r for r in result.recordings if r.recording.session_id == "s1")
    assert sorted({s.speaker for s in recording.segments}) == ["B", nfc]
    assert "are one speaker" in notes_of(result, "s1")
    ref = [Segment("u", 0.0, 2.0, "spkA", "one two"), Segment("u", 3.0, 4.0, "spkB", "three")]
    hyp = [Segment("u", 0.0, 2.0, "spkA ", "one two"), Segment("u", 3.0, 4.0, "spkB", "three")]
    scores = score_pair(ref, hyp)
    assert scores["cpwer"]["errors"] == 0
    assert any("'spkA ' read as 'spkA'" in note for note in scores["notes"])


@pytest.mark.parametrize(
    "bad, why",
    [("s\tx", "control character"), ("s\x00x", "control character"), ("s" * 200, "bytes long")],
)
def test_a_session_id_that_cannot_name_a_file_or_a_csv_row_rejects_only_its_session(
    tmp_path: Path, bad: str, why: str
):
    lines = "".join(rttm_line(s, 0.0, 2.0, "A") + rttm_line(s, 2.5, 2.0, "B") for s in ("s1", "s2"))
    (tmp_path / "good.rttm").write_text(lines)
    (tmp_path / "bad.seglst.json").write_text(
        '[{"session_id": ' + __import__("json").dumps(bad) + ', "speaker": "A", '
        '"start_time": 0.0, "end_time": 2.0, "words": "hi"}]'
    )
    good = ingest_source(source(tmp_path, "rttm", "good.rttm"))
    assert {r.recording.session_id for r in good.recordings} == {"s1", "s2"}
    spec = source(tmp_path, "seglst", "bad.seglst.json")
    result = ingest_source(spec)
    assert not result.recordings
    assert any(why in r.reason for r in result.rejections), [r.reason for r in result.rejections]
