"""Real system outputs (tests/fixtures/outputs/README.md names each file's source): each is read
by content, and its cpWER and tcpWER counts equal meeteval's on an independent conversion of the
same file to STM, written here from the vendor's documented schema (not with msbench's readers).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import meeteval
import pytest

from msbench.errors import InputError
from msbench.io.read import read_output
from msbench.scoring.pipeline import score_pair
from tests.helpers.paths import REPO

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core

OUTPUTS = REPO / "tests" / "fixtures" / "outputs"
REFERENCE = OUTPUTS / "vibevoice_reference.stm"
VIBEVOICE = {
    "vibevoice_raw_decoded.txt": "by content",
    "vibevoice_model.json": "by content",
    "vibevoice_prompt_keys.json": "by content",
    "vibevoice_post_processed.json": "by content",
}


def vibevoice_as_stm(path: Path, session: str) -> str:
    """VibeVoice's answer to STM from its documented forms, independently of msbench: the JSON
    between the first ``[`` and the last ``]`` (the Transformers docs' raw output has a chat
    wrapper), keys mapped as microsoft/VibeVoice's post_process_transcription maps them."""
    text = path.read_text(encoding="utf-8")
    entries = json.loads(text[text.index("[") : text.rindex("]") + 1])
    mapping = {"Start time": "start", "Start": "start", "start_time": "start", "End time": "end",
               "End": "end", "end_time": "end", "Speaker ID": "speaker", "Speaker": "speaker",
               "speaker_id": "speaker", "Content": "text", "text": "text"}  # fmt: skip
    lines = []
    for entry in entries:
        e = {mapping[k]: v for k, v in entry.items() if k in mapping}
        lines.append(f"{session} 1 spk{e['speaker']} {e['start']} {e['end']} {e['text']}\n")
    return "".join(lines)


def google_as_stm(path: Path, session: str) -> str:
    """Google's diarized words (the last result) to STM, one word a line: protobuf durations
    ``{seconds, nanos}`` added on their decimal texts."""
    data = json.loads(path.read_text(encoding="utf-8"))

    def t(d: dict) -> Decimal:
        return Decimal(d.get("seconds", "0")) + Decimal(d.get("nanos", 0)) / Decimal(10**9)

    words = data["results"][-1]["alternatives"][0]["words"]
    return "".join(
        f"{session} 1 spk{w['speakerTag']} {t(w['startTime'])} {t(w['endTime'])} {w['word']}\n"
        for w in words
    )


def meeteval_counts(ref_stm: str, hyp_stm: str, tmp_path: Path) -> dict[str, tuple[int, ...]]:
    (tmp_path / "r.stm").write_text(ref_stm, encoding="utf-8")
    (tmp_path / "h.stm").write_text(hyp_stm, encoding="utf-8")
    ref, hyp = (meeteval.io.STM.load(tmp_path / n) for n in ("r.stm", "h.stm"))
    out = {}
    for name, metric in (("cpwer", meeteval.wer.cpwer), ("tcpwer", meeteval.wer.tcpwer)):
        kwargs = {"collar": 5} if name == "tcpwer" else {}
        if name == "tcpwer":
            kwargs |= {
                "ref_pseudo_word_timing": "character_based",
                "hyp_pseudo_word_timing": "character_based_points",
            }
        (er,) = metric(ref, hyp, **kwargs).values()
        out[name] = (er.errors, er.length, er.substitutions, er.insertions, er.deletions)
    return out


def msbench_counts(ref: Path, hyp: Path, session: str) -> tuple[str, dict[str, tuple[int, ...]]]:
    reading = read_output(hyp, session=session)
    scores = score_pair(read_output(ref).segments, reading.segments, tokenizer="whitespace")
    counts = {
        k: tuple(
            scores[k][f] for f in ("errors", "length", "substitutions", "insertions", "deletions")
        )
        for k in ("cpwer", "tcpwer")
    }
    return reading.format, counts


@pytest.mark.parametrize("name", sorted(VIBEVOICE))
def test_vibevoice_in_each_real_form_scores_as_meeteval(name: str, tmp_path: Path):
    fmt, ours = msbench_counts(REFERENCE, OUTPUTS / name, "podcast")
    assert fmt == "vibevoice"
    theirs = meeteval_counts(REFERENCE.read_text(encoding="utf-8"),
                             vibevoice_as_stm(OUTPUTS / name, "podcast"), tmp_path)  # fmt: skip
    assert ours == theirs
    assert (
        0 < ours["cpwer"][0] < ours["cpwer"][1]
    )  # some errors, not all: the counts mean something


def test_vibevoice_cut_off_inside_its_wrapper_is_incomplete(tmp_path: Path):
    text = (OUTPUTS / "vibevoice_raw_decoded.txt").read_text(encoding="utf-8")
    cut = tmp_path / "cut.txt"
    cut.write_text(text[: text.index('"Speaker":1') + 5], encoding="utf-8")
    with pytest.raises(InputError, match="incomplete"):
        read_output(cut)


def test_google_nodejs_seconds_and_nanos(tmp_path: Path):
    ref = tmp_path / "ref.stm"
    ref.write_text("u 1 A 0.5 2.25 hello there friend\nu 1 B 2.5 4.0 hi how were you\n"
                   "u 1 A 4.5 6.125 fine thanks\n", encoding="utf-8")  # fmt: skip
    hyp = OUTPUTS / "google_node_nanos.json"
    fmt, ours = msbench_counts(ref, hyp, "u")
    assert fmt == "google-stt"
    assert ours == meeteval_counts(
        ref.read_text(encoding="utf-8"), google_as_stm(hyp, "u"), tmp_path
    )
    segments = read_output(hyp, session="u").segments
    assert [(s.speaker, s.start_time, s.end_time) for s in segments] == [
        ("1", 0.5, 2.25), ("2", 2.5, 4.0), ("1", 4.5, 6.125)]  # fmt: skip


def test_an_unknown_json_object_says_what_was_tried(tmp_path: Path):
    odd = tmp_path / "odd.json"
    odd.write_text('{"transcript": {"lines": []}}', encoding="utf-8")
    with pytest.raises(InputError) as error:
        read_output(odd)
    message = str(error.value)
    assert "no known shape" in message and "'transcript'" in message
    for name in ("vibevoice", "whisperx", "assemblyai", "deepgram", "google-stt"):
        assert f"{name}:" in message


def test_a_binary_file_is_answered_about_scoring_not_the_sheet(tmp_path: Path):
    binary = tmp_path / "out.bin"
    binary.write_bytes(bytes(range(256)) * 8)
    with pytest.raises(InputError) as error:
        read_output(binary)
    assert "sheet" not in str(error.value) and "system output" in str(error.value)


def test_msbench_score_says_what_it_read_and_warns_on_stderr(tmp_path: Path):
    hyp = tmp_path / "other.json"
    data = json.loads((OUTPUTS / "vibevoice_model.json").read_text(encoding="utf-8"))
    hyp.write_text(json.dumps(data), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "msbench.cli", "score", "--ref", str(REFERENCE), "--hyp", str(hyp), "--json"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    scores = json.loads(done.stdout)
    assert scores["read"]["hyp"] == {"format": "vibevoice", "chosen_by": "content", "speakers": 2,
                                     "segments": 4}  # fmt: skip
    assert re.search(
        r"^hyp: read as vibevoice \(by content; 2 speakers, 4 segments\)", done.stderr, re.M
    )
    assert "ref: read as stm (by file name; 2 speakers, 4 segments)" in done.stderr
    # one session each side with different names: paired, and said on stderr as in the notes
    assert scores["notes"] and all(f"warning: {n}" in done.stderr for n in scores["notes"])


def test_msbench_score_help_lists_every_format():
    from msbench.io.registry import SCORING_FORMATS

    done = subprocess.run([sys.executable, "-m", "msbench.cli", "score", "--help"],
                          capture_output=True, text=True, check=True)  # fmt: skip
    flat = " ".join(done.stdout.split())
    assert all(name in flat for name in SCORING_FORMATS)
    assert "--json" in flat


THREE_TURNS = "u 1 A 0.5 2.25 Hello there friend.\nu 1 B 2.5 4.0 Hi, how were you?\nu 1 A 4.5 6.125 Fine thanks.\n"


def elevenlabs_as_stm(path: Path, session: str) -> str:
    """ElevenLabs' words of type 'word' to STM, one word a line (spacing and events left out)."""
    words = json.loads(path.read_text(encoding="utf-8"))["words"]
    return "".join(f"{session} 1 {w['speaker_id']} {w['start']} {w['end']} {w['text']}\n"
                   for w in words if w["type"] == "word")  # fmt: skip


def revai_as_stm(path: Path, session: str) -> str:
    """Rev.ai's text elements to STM, one word a line, punctuation joined to the word before."""
    lines = []
    for monologue in json.loads(path.read_text(encoding="utf-8"))["monologues"]:
        for e in monologue["elements"]:
            if e["type"] == "text":
                lines.append(
                    [session, "1", f"s{monologue['speaker']}", e["ts"], e["end_ts"], e["value"]]
                )
            elif e["value"].strip():
                lines[-1][-1] += e["value"].strip()
    return "".join(" ".join(map(str, line)) + "\n" for line in lines)


@pytest.mark.parametrize(("name", "fmt", "convert"), [
    ("elevenlabs_diarized.json", "elevenlabs", elevenlabs_as_stm),
    ("revai_transcript.json", "revai", revai_as_stm),
])  # fmt: skip
def test_service_outputs_score_as_meeteval(name, fmt, convert, tmp_path: Path):
    ref = tmp_path / "ref.stm"
    ref.write_text(THREE_TURNS, encoding="utf-8")
    found, ours = msbench_counts(ref, OUTPUTS / name, "u")
    assert found == fmt
    assert ours == meeteval_counts(THREE_TURNS, convert(OUTPUTS / name, "u"), tmp_path)
    assert ours["cpwer"][:2] == (1, 9)  # 'how were' against 'how are'; the laugh is no word


def _json(name: str) -> dict:
    return json.loads((OUTPUTS / name).read_text(encoding="utf-8"))


def openai_as_stm(path: Path, session: str) -> str:
    return "".join(f"{session} 1 {s['speaker']} {s['start']} {s['end']} {s['text']}\n"
                   for s in _json(path.name)["segments"])  # fmt: skip


def whisper_cpp_as_stm(path: Path, session: str) -> str:
    return "".join(
        f"{session} 1 s{t['speaker']} {Decimal(t['offsets']['from']) / 1000} "
        f"{Decimal(t['offsets']['to']) / 1000} {t['text'].strip()}\n"
        for t in _json(path.name)["transcription"]
    )


def azure_as_stm(path: Path, session: str) -> str:
    return "".join(
        f"{session} 1 s{p['speaker']} {Decimal(int(p['offsetInTicks'])) / 10**7} "
        f"{Decimal(int(p['offsetInTicks']) + int(p['durationInTicks'])) / 10**7} {p['nBest'][0]['lexical']}\n"
        for p in _json(path.name)["recognizedPhrases"] if p["recognitionStatus"] == "Success"
    )  # fmt: skip


def nemo_as_stm(path: Path, session: str) -> str:
    return "".join(f"{session} 1 {w['speaker']} {w['start_time']} {w['end_time']} {w['word']}\n"
                   for w in _json(path.name)["words"])  # fmt: skip


@pytest.mark.parametrize(("name", "fmt", "convert", "errors"), [
    ("openai_diarized.json", "openai-diarized", openai_as_stm, 1),
    ("whisper_cpp_diarize.json", "whisper-cpp", whisper_cpp_as_stm, 1),
    ("azure_batch_diarized.json", "azure-batch", azure_as_stm, 7),  # lexical: no case, no punctuation
    ("nemo_transcript.json", "nemo", nemo_as_stm, 7),
])  # fmt: skip
def test_more_service_outputs_score_as_meeteval(name, fmt, convert, errors, tmp_path: Path):
    ref = tmp_path / "ref.stm"
    ref.write_text(THREE_TURNS, encoding="utf-8")
    found, ours = msbench_counts(ref, OUTPUTS / name, "u")
    assert found == fmt
    assert ours == meeteval_counts(THREE_TURNS, convert(OUTPUTS / name, "u"), tmp_path)
    assert ours["cpwer"][:2] == (errors, 9)


def test_nemo_sentences_are_its_turns():
    segments = read_output(OUTPUTS / "nemo_transcript.json", session="u").segments
    assert [(s.speaker, s.start_time, s.end_time) for s in segments] == [
        ("speaker_0", 0.5, 2.25), ("speaker_1", 2.5, 4.0), ("speaker_0", 4.5, 6.125)]  # fmt: skip


def test_whisper_cpp_without_speakers_takes_the_rttm_beside_it(tmp_path: Path):
    """-tdrz marks turns and names no speaker: scored as one speaker (with the note), unless a
    <unit>.rttm beside it gives the turns their speakers."""
    import msbench

    data = _json("whisper_cpp_diarize.json")
    for item in data["transcription"]:
        del item["speaker"]
        item["speaker_turn_next"] = True  # -tdrz marks turns, names no speaker
    (tmp_path / "u.json").write_text(json.dumps(data), encoding="utf-8")
    alone = msbench.score(tmp_path / "u.json", tmp_path / "u.json")
    assert alone.notes[0].startswith("no speaker labels: scored as one speaker")
    (tmp_path / "u.rttm").write_text("SPEAKER u 1 0.4 1.9 <NA> <NA> x <NA> <NA>\n"
                                     "SPEAKER u 1 2.4 1.7 <NA> <NA> y <NA> <NA>\n"
                                     "SPEAKER u 1 4.4 1.8 <NA> <NA> x <NA> <NA>\n")  # fmt: skip
    reading = read_output(tmp_path / "u.json", session="u")
    assert [s.speaker for s in reading.segments] == ["x", "y", "x"]


def test_pyannoteai_der_equals_pyannote_metrics(tmp_path: Path):
    from pyannote.core import Annotation, Timeline
    from pyannote.core import Segment as Span
    from pyannote.metrics.diarization import DiarizationErrorRate

    ref = tmp_path / "ref.rttm"
    ref.write_text("".join(f"SPEAKER u 1 {s} {e - s} <NA> <NA> {w} <NA> <NA>\n"
                           for w, s, e in (("A", 0.5, 2.25), ("B", 2.5, 4.0), ("A", 4.5, 6.125))))  # fmt: skip
    reading = read_output(OUTPUTS / "pyannoteai_job.json", session="u")
    assert reading.format == "pyannoteai"
    scores = score_pair(read_output(ref).segments, reading.segments, collar=0.0)
    reference, hypothesis = Annotation(), Annotation()
    for w, s, e in (("A", 0.5, 2.25), ("B", 2.5, 4.0), ("A", 4.5, 6.125)):
        reference[Span(s, e)] = w
    for t in _json("pyannoteai_job.json")["output"]["diarization"]:
        hypothesis[Span(t["start"], t["end"])] = t["speaker"]
    uem = Timeline([Span(0.0, 6.125)])  # msbench's default: 0 to the last end of either side
    theirs = DiarizationErrorRate(collar=0.0, skip_overlap=False)(reference, hypothesis, uem=uem)
    assert scores["cpwer"] is None  # speaker times only: DER alone
    assert scores["der"]["error_rate"] == pytest.approx(theirs, abs=1e-9)


def assemblyai_as_stm(path: Path, session: str) -> str:
    return "".join(
        f"{session} 1 {u['speaker']} {Decimal(u['start']) / 1000} {Decimal(u['end']) / 1000} {u['text']}\n"
        for u in _json(path.name)["utterances"]
    )


def test_assemblyai_full_transcript_object_scores_as_meeteval(tmp_path: Path):
    ref = tmp_path / "ref.stm"
    ref.write_text(THREE_TURNS, encoding="utf-8")
    name = "assemblyai_speaker_labels.json"
    found, ours = msbench_counts(ref, OUTPUTS / name, "u")
    assert found == "assemblyai"
    assert ours == meeteval_counts(THREE_TURNS, assemblyai_as_stm(OUTPUTS / name, "u"), tmp_path)
    assert ours["cpwer"][:2] == (1, 9)


def test_assemblyai_without_speaker_labels_is_scored_as_one_speaker():
    import msbench

    path = OUTPUTS / "assemblyai_no_speakers.json"
    reading = read_output(path, session="u")
    assert reading.format == "assemblyai" and len(reading.segments) == 1  # one run, no speaker
    report = msbench.score(THREE_TURNS_SEGLST, path)
    assert report.notes[0].startswith("no speaker labels: scored as one speaker")
    assert report["wer"]["errors"] < report["cpwer"]["errors"]


#: The three turns of THREE_TURNS as SegLST dicts.
THREE_TURNS_SEGLST = [
    {"session_id": "u", "speaker": w, "start_time": float(s), "end_time": float(e), "words": words}
    for _, _, w, s, e, words in (line.split(" ", 5) for line in THREE_TURNS.splitlines())
]


def moss_as_stm(path: Path, session: str) -> str:
    turns = re.findall(r"\[([\d.]+)\]\[(S\d+)\](.*?)\[([\d.]+)\]", path.read_text(encoding="utf-8"))
    return "".join(f"{session} 1 {who} {a} {b} {words}\n" for a, who, words, b in turns)


def test_moss_transcript_scores_as_meeteval_and_a_cut_turn_is_incomplete(tmp_path: Path):
    ref = tmp_path / "ref.stm"
    ref.write_text(THREE_TURNS, encoding="utf-8")
    name = OUTPUTS / "moss_transcript.txt"
    found, ours = msbench_counts(ref, name, "u")
    assert found == "moss"  # by content, though the name says .txt
    assert ours == meeteval_counts(THREE_TURNS, moss_as_stm(name, "u"), tmp_path)
    assert ours["cpwer"][:2] == (1, 9)
    cut = tmp_path / "cut.txt"
    cut.write_text(name.read_text(encoding="utf-8")[:-10], encoding="utf-8")
    with pytest.raises(InputError, match="incomplete: .* has no end time"):
        read_output(cut)
