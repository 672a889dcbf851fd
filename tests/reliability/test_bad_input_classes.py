"""Round two of bad input, class by class: each class's cases across the adapters it touches.

For every case the run goes on for every other session, ``in = accepted +
rejected`` with each session named once, the message names the file and line
(or entry) and a fix, and no value is silently changed (what was done is a note).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest

from msbench.config import load_config
from msbench.errors import ConfigError, InputError
from msbench.ingest.sheet import SourceSpec, read_dataset_sheet
from msbench.ingest.source import IngestResult, ingest_source
from msbench.io.read import read_segments
from msbench.records import Segment
from msbench.scoring.pipeline import score_pair
from msbench.textio import read_text
from tests.helpers.fixtures import rttm_line, write_tone

SESSIONS = ("s1", "s2", "s3")


def source(tmp_path: Path, adapter: str, pattern: str, **extra: str) -> SourceSpec:
    for session in SESSIONS:
        write_tone(tmp_path / "audio" / f"{session}.wav", 10.0)
    return SourceSpec(
        name="corpus",
        adapter=adapter,
        annotations=str(tmp_path / pattern),
        audio=str(tmp_path / "audio" / "{session}.wav"),
        language="English",
        **extra,
    )


def accounted(result: IngestResult) -> dict[str, str]:
    """Session -> 'accepted' or its rejection reason; every session named exactly once."""
    names = [r.recording.session_id for r in result.recordings]
    names += [r.recording_id.split("::")[1] for r in result.rejections]
    assert len(names) == len(set(names)), names
    outcome = {r.recording.session_id: "accepted" for r in result.recordings}
    outcome |= {r.recording_id.split("::")[1]: r.reason for r in result.rejections}
    return outcome


def notes_of(result: IngestResult, session: str) -> str:
    return " | ".join(next(r for r in result.recordings if r.recording.session_id == session).notes)


def two_speakers(session: str) -> list[dict]:
    return [
        {"session_id": session, "speaker": "A", "start_time": 0.0, "end_time": 2.0, "words": "hi"},
        {"session_id": session, "speaker": "B", "start_time": 2.5, "end_time": 4.0, "words": "yo"},
    ]


# --- compressed input: a damaged .gz is an error of that file, never the run ---------------


@pytest.mark.parametrize(
    "damage", [lambda b: b[: len(b) // 2], lambda b: b"not gzip at all", lambda b: b[:10]]
)
def test_a_damaged_gzip_names_the_file_and_the_source_goes_on(tmp_path: Path, damage):
    good = "".join(rttm_line(s, 0.0, 2.0, "A") + rttm_line(s, 2.5, 2.0, "B") for s in ("s1", "s2"))
    (tmp_path / "good.rttm").write_text(good)
    packed = gzip.compress(
        (rttm_line("s3", 0.0, 2.0, "A") + rttm_line("s3", 2.5, 2.0, "B")).encode()
    )
    (tmp_path / "s3.rttm.gz").write_bytes(damage(packed))
    with pytest.raises(InputError, match=r"s3\.rttm\.gz: damaged gzip file.*gzip -t"):
        read_text(tmp_path / "s3.rttm.gz")
    outcome = accounted(ingest_source(source(tmp_path, "rttm", "*.rttm*")))
    assert outcome["s1"] == outcome["s2"] == "accepted"
    assert "damaged gzip file" in outcome["s3"]


def test_a_damaged_gzip_transcript_or_uem_is_named_too(tmp_path: Path):
    (tmp_path / "a.uem.gz").write_bytes(b"\x1f\x8b\x08\x00broken")
    (tmp_path / "t.stm.gz").write_bytes(b"\x1f\x8b\x08\x00broken")
    for path in ("a.uem.gz", "t.stm.gz"):
        with pytest.raises(InputError, match="damaged gzip file"):
            read_text(tmp_path / path)


# --- one bad entry rejects only what it names -------------------------------------------------


def test_a_bare_speaker_line_and_a_lower_case_type_lose_no_session(tmp_path: Path):
    lines = [rttm_line(s, 0.0, 2.0, "A") + rttm_line(s, 2.5, 2.0, "B") for s in SESSIONS]
    lines.insert(1, "SPEAKER\n")
    lines.append("speaker s3 1 5.00 1.00 <NA> <NA> C <NA> <NA>\n")
    (tmp_path / "all.rttm").write_text("".join(lines))
    result = ingest_source(source(tmp_path, "rttm", "*.rttm"))
    assert set(accounted(result).values()) == {"accepted"}
    for session in SESSIONS:  # the skipped line is a note of every session of the file
        assert "all.rttm:line 3: RTTM line has 1 fields" in notes_of(result, session)
    three = next(r for r in result.recordings if r.recording.session_id == "s3")
    assert {s.speaker for s in three.segments} == {"A", "B", "C"}
    assert "type 'speaker' read as 'SPEAKER'" in notes_of(result, "s3")


@pytest.mark.parametrize(
    "bad",
    [
        {"speaker": "A", "start_time": 0, "end_time": 1},  # no session_id
        "a string, not an object",
        {"session_id": None, "speaker": "A", "start_time": 0, "end_time": 1},
    ],
)
def test_a_seglst_entry_without_a_session_rejects_no_session(tmp_path: Path, bad):
    entries = [*two_speakers("s1"), bad, *two_speakers("s2"), *two_speakers("s3")]
    (tmp_path / "all.json").write_text(json.dumps(entries))
    result = ingest_source(source(tmp_path, "seglst", "*.json"))
    assert set(accounted(result).values()) == {"accepted"}
    assert "all.json:segment 2: no session_id: skipped" in notes_of(result, "s1")


def test_a_bad_lhotse_line_rejects_only_its_recording(tmp_path: Path):
    lines = [
        json.dumps({"id": f"{s}-{k}", "recording_id": s, "start": k * 2.5, "duration": 2.0,
                    "channel": 0, "speaker": "AB"[k], "text": "hi"})
        for s in SESSIONS for k in (0, 1)
    ]  # fmt: skip
    lines.insert(2, "{not json")
    lines.insert(3, json.dumps({"id": "x", "recording_id": "s2", "start": "soon"}))
    (tmp_path / "sup.jsonl").write_text("\n".join(lines) + "\n")
    outcome = accounted(ingest_source(source(tmp_path, "lhotse", "sup.jsonl")))
    assert outcome["s1"] == outcome["s3"] == "accepted"
    assert "sup.jsonl:line 4: not a lhotse supervision" in outcome["s2"]


# --- a transcript file: read file by file; an unreadable one rejects only its sessions --------


def test_an_undecodable_transcript_rejects_only_its_sessions(tmp_path: Path):
    lines = [rttm_line(s, 0.0, 2.0, "A") + rttm_line(s, 2.5, 2.0, "B") for s in SESSIONS]
    (tmp_path / "all.rttm").write_text("".join(lines))
    words = tmp_path / "words"
    words.mkdir()
    (words / "good.stm").write_text(
        "s1 1 A 0.0 2.0 hello there\ns1 1 B 2.5 4.5 good morning\n"
        "s3 1 A 0.0 2.0 hi\ns3 1 B 2.5 4.5\ns3 1 B 3.0\n"
    )
    (words / "bad.stm").write_bytes("s2 1 A 0.0 2.0 caf\u00e9\n".encode("latin-1"))
    spec = source(tmp_path, "rttm", "*.rttm", transcripts=str(words / "*.stm"))
    result = ingest_source(spec)
    outcome = accounted(result)
    assert outcome["s1"] == outcome["s3"] == "accepted"
    assert "bad.stm" in outcome["s2"] and "transcript unreadable" in outcome["s2"]
    one = next(r for r in result.recordings if r.recording.session_id == "s1")
    assert [s.words for s in one.transcript] == ["hello there", "good morning"]
    assert "transcript line left out" in notes_of(result, "s3") and "line 5" in notes_of(
        result, "s3"
    )


# --- JSON nulls and types: never a speaker "None", a time `true`, a list as a string ---------


@pytest.mark.parametrize("adapter", ["seglst", "chime"])
def test_json_nulls_and_wrong_types_are_problems_not_values(tmp_path: Path, adapter):
    entries = two_speakers("s1") + two_speakers("s2") + two_speakers("s3")
    entries[1]["speaker"] = None  # s1
    entries[2]["start_time"] = True  # s2
    entries[4]["words"] = ["good", "day"]  # s3: joined, noted
    if adapter == "chime":
        for session in SESSIONS:
            part = [e for e in entries if e["session_id"] == session]
            (tmp_path / f"{session}.json").write_text(json.dumps(part))
    else:
        (tmp_path / "all.json").write_text(json.dumps(entries))
    result = ingest_source(source(tmp_path, adapter, "*.json"))
    outcome = accounted(result)
    assert "empty speaker label None" in outcome["s1"]
    assert "not a time: True" in outcome["s2"] or "not numbers" in outcome["s2"]
    three = next(r for r in result.recordings if r.recording.session_id == "s3")
    assert "good day" in [s.words for s in three.segments]
    assert "words given as a list, joined with spaces" in notes_of(result, "s3")


# --- config: no NaN or infinite number, edges strictly increasing -----------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("selection: {max_hours: .nan}", "selection.max_hours: not a finite number"),
        ("selection: {min_hours: .inf}", "selection.min_hours: not a finite number"),
        ("condition_space: {axes: {O: {edges: [0.4, 0.2, 0.1]}}}", "descending edge 0.2"),
        ("condition_space: {axes: {S: {edges: [0.3, 0.3, 0.6]}}}", "repeated (an empty range)"),
    ],
)
def test_config_numbers_that_would_relabel_or_crash_are_refused(tmp_path: Path, text, message):
    path = tmp_path / "config.yaml"
    path.write_text(text + "\n")
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_config(path)


# --- scoring input: a file that is not what its name says; times from another world ----------


def test_scoring_input_in_the_wrong_format_or_units_is_said(tmp_path: Path):
    stm = "s1 1 A 0.0 2.0 hello there\ns1 1 B 2.5 4.0 good morning\n"
    (tmp_path / "ref.stm").write_text(stm)
    (tmp_path / "hyp.rttm").write_text(stm)
    with pytest.raises(InputError, match="no rttm segment.*looks like stm"):
        read_segments(tmp_path / "hyp.rttm")
    far = tmp_path / "far.stm"
    far.write_text("s1 1 A 1000000000000.0 1000000000002.0 hello there\n")
    scores = score_pair(read_segments(tmp_path / "ref.stm"), read_segments(far))
    assert any("more than 60 s past the reference's last end" in n for n in scores["notes"])
    empty = score_pair(read_segments(tmp_path / "ref.stm"), [])
    assert empty["cpwer"]["error_rate"] == 1.0 and empty["cpwer"]["deletions"] == 4
    undefined = score_pair([], read_segments(tmp_path / "ref.stm"))
    assert undefined["der"]["error_rate"] is None
    assert any("undefined" in n for n in undefined["notes"])


# --- audio patterns: one file per session, or the sheet line is refused -----------------------


def test_an_audio_pattern_that_cannot_name_one_file_per_session_is_refused(tmp_path: Path):
    header = "name\tadapter\tannotations\taudio\n"
    for audio, message in (
        ("audio/{session}*.flac", "a glob character touches {session}"),
        ("audio/all.flac", "names no {session}"),
    ):
        sheet = tmp_path / "datasets.tsv"
        sheet.write_text(header + f"c\trttm\tann/*.rttm\t{audio}\n")
        with pytest.raises(
            ConfigError, match=r"datasets.tsv:line 2: audio .*" + re.escape(message)
        ):
            read_dataset_sheet(sheet)
    sheet.write_text(header.replace("\t", "  ") + "c  rttm  ann/*.rttm  audio/{session}.wav\n")
    with pytest.raises(ConfigError, match="tab-separated"):
        read_dataset_sheet(sheet)


def test_a_globbed_audio_pattern_takes_only_the_sessions_own_file(tmp_path: Path):
    for name in ("s_U01.wav", "s1_U01.wav"):
        write_tone(tmp_path / name, 1.0)
    spec = SourceSpec("c", "rttm", "x", audio=str(tmp_path / "{session}_U0*.wav"))
    assert spec.audio_path("s") == str(tmp_path / "s_U01.wav")
    assert spec.audio_path("s1") == str(tmp_path / "s1_U01.wav")
    assert spec.audio_path("s2").endswith(
        "s2_U0*.wav"
    )  # none: the missing-audio rejection names it


# --- audio that is not speech: rejected before any model, with the reason ---------------------


def test_noise_a_tone_and_float_audio_past_full_scale_are_not_characterized(tmp_path: Path):
    import numpy as np
    import soundfile

    from msbench.features.acoustic import load_16k
    from msbench.features.integrity import integrity_flags
    from msbench.records import IngestedRecording, Recording
    from tests.helpers.paths import DEMO

    speech, rate = soundfile.read(DEMO / "es2004a" / "audio" / "ES2004a.flac", dtype="float32")
    rng = np.random.default_rng(0)
    seconds = np.arange(len(speech)) / rate
    signals = {
        "speech": (speech, "PCM_16"),
        "noise": ((rng.standard_normal(len(speech)) * 0.1).astype(np.float32), "PCM_16"),
        "sine": ((0.3 * np.sin(2 * np.pi * 1000 * seconds)).astype(np.float32), "PCM_16"),
        "loud": (speech * 8, "FLOAT"),
    }
    turns = [Segment("x", 2.0 * k, 2.0 * k + 1.8, "AB"[k % 2]) for k in range(25)]
    outcome = {}
    for name, (signal, subtype) in signals.items():
        path = tmp_path / f"{name}.wav"
        soundfile.write(path, signal, rate, subtype=subtype)
        recording = Recording(
            name, "c", name, str(path), len(signal) / rate, rate, 1, 0, "English", "", "", ""
        )
        item = IngestedRecording(recording, tuple(turns))
        try:
            audio, _ = load_16k(item)  # what extract() runs before any model
            integrity_flags(audio, 16000, item.segments, str(path))
            outcome[name] = "accepted"
        except InputError as error:
            outcome[name] = str(error)
    assert outcome["speech"] == "accepted"
    for name in ("noise", "sine"):
        assert f"{name}.wav" in outcome[name] and "no speech found: Silero VAD" in outcome[name]
    assert "float samples reach" in outcome["loud"] and "x full scale" in outcome["loud"]


# --- file names the workflow cannot quote: still ingested, the DAG still builds ---------------


def test_file_names_with_wildcard_characters_do_not_stop_the_workflow(tmp_path: Path):
    from tests.helpers.workflow import copy_workflow, snakemake

    work = copy_workflow(tmp_path / "work")
    folder = work / "resources" / "demo" / "two-speaker" / "annotations"
    text = (folder / "sample.rttm").read_text().replace("sample", "x{y}")
    (folder / "x{y}.rttm").write_text(text)
    (folder.parent / "audio" / "x<y>.flac").write_bytes(b"")
    result = snakemake(work, "--cores", "1", "--dry-run", check=False)
    assert result.returncode == 0, (result.stdout + result.stderr)[-2000:]
    spec = SourceSpec(
        "two_speaker",
        "rttm",
        str(folder / "*.rttm"),
        audio=str(folder.parent / "audio/{session}.flac"),
    )
    outcome = accounted(ingest_source(spec))
    assert outcome["sample"] == "accepted" and "x{y}" in outcome
    warnings = ingest_source(spec).warnings
    assert any("x{y}.rttm: its name holds" in w for w in warnings)


def test_a_question_answered_twice_is_refused_with_both_entries(tmp_path: Path):
    from msbench.probes.accuracy import read_answers

    path = tmp_path / "answers.jsonl"
    path.write_text(
        '{"question_id": "q1", "answer": "A"}\n{"question_id": "q2", "answer": "B"}\n'
        '{"question_id": "q1", "answer": "C"}\n'
    )
    with pytest.raises(InputError, match=r"'q1' is answered twice \(entries 1 and 3\)"):
        read_answers(path)


# --- what was silent: now said (notes and warnings), and messages that name the right thing ---


def test_quiet_cases_are_now_said(tmp_path: Path):
    lines = [rttm_line(s, 0.0, 2.0, "A") + rttm_line(s, 2.5, 2.0, "B") for s in SESSIONS]
    (tmp_path / "all.rttm").write_text("".join(lines))
    (tmp_path / "a.uem").write_text("s1 1 0.0 3.0\ns1 1 4.0 9.0\n")
    words = tmp_path / "words.stm"
    words.write_text("s1 1 A 0.0 2.0 hello\nghost 1 A 0.0 1.0 boo\ns2 1 A 0.0 12.0 too long\n")
    spec = source(tmp_path, "rttm", "*.rttm", uem=str(tmp_path / "*.uem"), transcripts=str(words))
    result = ingest_source(spec)
    assert any("transcripts of 1 session(s) no annotation names" in w and "ghost" in w
               for w in result.warnings)  # fmt: skip
    assert "scored region: 2 UEM spans; the 1.000 s between them are not scored" in notes_of(
        result, "s1"
    )
    assert "transcript: 1 line(s) end after the audio's 10.000 s" in notes_of(result, "s2")
    missing = ingest_source(source(tmp_path, "rttm", "*.rttm", uem=str(tmp_path / "none*.uem")))
    assert any("no UEM file matches" in w for w in missing.warnings)


def test_a_pattern_naming_the_session_twice_finds_its_audio(tmp_path: Path):
    """The AMI rebuild row's `amicorpus/{session}/audio/{session}.Array1-01.wav`."""
    for folder, name in (("ES2004a", "ES2004a"), ("ES2004b", "ES2004c")):
        write_tone(tmp_path / folder / "audio" / f"{name}.Array1-01.wav", 1.0)
    spec = SourceSpec(
        "c", "rttm", "x", audio=str(tmp_path / "{session}/audio/{session}.Array1-01.wav")
    )
    found = spec.audio_sessions()  # a file under another session's folder is no session's
    assert found == {"ES2004a": str(tmp_path / "ES2004a/audio/ES2004a.Array1-01.wav")}
