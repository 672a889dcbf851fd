"""The benchmark authors' text conventions (msbench.scoring.tokenizer, .numbers, .aslp): numbers
and invisible characters under mixed-v2, the lab's own normalizer by name, outputs without
speakers scored as one speaker, and MOSS brackets as the model's parser reads them."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest

import msbench
from msbench.scoring import aslp
from msbench.scoring.tokenizer import DEFAULT_TOKENIZER, tokenize
from tests.helpers.paths import REPO

pytestmark = pytest.mark.core
LAB = REPO / "tests/fixtures/aslp/lab_outputs.jsonl.gz"
OUTPUTS = REPO / "tests/fixtures/outputs"
#: Strings a new user tried (the issue), each with the reference and the hypothesis' writing.
NUMBERS = [
    ("我们下午三点开会", "我们下午3点开会"),
    ("百分之五十", "百分之50"),
    ("第一万个", "第10000个"),
    ("五十块钱", "５０块钱"),
    ("一千万", "1000万"),
    ("圆周率是三点一四", "圆周率是3.14"),
    ("二零二六年", "2026年"),
    ("一千块", "1,000块"),
    ("there were fifteen people", "there were 15 people"),
    ("one hundred and one", "101"),
]


def lab_rows() -> list[dict]:
    return [json.loads(line) for line in gzip.open(LAB, "rt", encoding="utf-8")]


def test_aslp_equals_the_labs_normalize_text_on_seeded_and_real_strings():
    """10,000 seeded strings (Han, Latin, digits, decimals, full-width forms, punctuation,
    invisible characters) and 615 lines of a real AISHELL-4 reference: the lab's own outputs,
    recorded by its file (scripts/make_aslp_fixture.py)."""
    rows = lab_rows()
    assert len(rows) >= 10_000 + 600
    differ = [(r["text"], r["tokens"]) for r in rows if tokenize(r["text"], "aslp") != r["tokens"]]
    assert not differ, differ[:5]


def test_a_convention_drifting_from_the_lab_is_caught(monkeypatch):
    """Planted fault: numbers read as a Chinese speaker would (一万零八十六), not as the lab's
    code does (一万八十六)."""
    import cn2an

    def as_spoken(number: int) -> str:  # cn2an reads up to 16 digits
        return str(cn2an.an2cn(str(number))) if number < 10**16 else str(number)

    monkeypatch.setattr(aslp, "chinese_by_value", as_spoken)
    from msbench.scoring.tokenizer import counted

    counted.cache_clear()
    try:
        differ = [r for r in lab_rows() if tokenize(r["text"], "aslp") != r["tokens"]]
    finally:
        counted.cache_clear()
    assert len(differ) > 50


def test_the_labs_own_examples_and_where_its_docstring_and_code_disagree():
    assert aslp.aslp_text("炒饭用生抽，嗯用生抽。") == "炒 饭 用 生 抽 嗯 用 生 抽"
    assert aslp.aslp_text("价格是12块5毛") == "价 格 是 十 二 块 五 毛"
    assert aslp.aslp_text("Hello, 世界！") == "Hello 世 界"
    assert aslp.aslp_text("2026年") == "二 千 零 二 十 六 年"  # its docstring says 二零二六年
    assert aslp.aslp_text("打电话给10086") == "打 电 话 给 一 万 八 十 六"  # no 零, as its code
    assert aslp.aslp_text("e-mail we're we’re") == "email we're were"


@pytest.mark.parametrize("reference, hypothesis", NUMBERS)
def test_mixed_v2_writes_a_number_one_way(reference: str, hypothesis: str):
    assert tokenize(reference) == tokenize(hypothesis), (tokenize(reference), tokenize(hypothesis))


def test_invisible_characters_are_never_tokens():
    for mark in ("\u200b", "\u200c", "\u200d", "\u200e", "\u2060", "\ufeff", "\u00ad"):
        assert tokenize(f"你好{mark}世界 ok{mark}") == ["你", "好", "世", "界", "ok"], repr(mark)
    assert "\u200b" in tokenize("你好\u200b世界", "mixed-v1")  # the convention before 0.3


def test_msbench_score_charges_a_formatting_choice_only_under_mixed_v1(tmp_path: Path):
    """The issue's case: 0 errors under the default, 1 under mixed-v1; the notes count what
    mixed-v2 rewrote on each side."""
    for name, text in (("ref.stm", "我们下午三点开会"), ("hyp.stm", "我们下午3点开会")):
        (tmp_path / name).write_text(f"u 1 A 0.0 3.0 {text}\n", encoding="utf-8")
    found = {}
    for tokenizer in ("mixed-v2", "mixed-v1", "aslp"):
        done = subprocess.run(
            [sys.executable, "-m", "msbench", "score", "--ref", str(tmp_path / "ref.stm"),
             "--hyp", str(tmp_path / "hyp.stm"), "--tokenizer", tokenizer, "--json"],
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        found[tokenizer] = json.loads(done.stdout)
    assert DEFAULT_TOKENIZER == "mixed-v2"
    assert {k: v["cpwer"]["errors"] for k, v in found.items()} == {
        "mixed-v2": 0, "mixed-v1": 1, "aslp": 0}  # fmt: skip
    assert found["mixed-v2"]["tokenizer"] == {"name": "mixed-v2", "version": "2",
                                             "traditional_to_simplified": False}  # fmt: skip
    assert any("mixed-v2 rewrote the hypothesis: 1 number" in n for n in found["mixed-v2"]["notes"])


def _without_speakers(name: str, strip) -> dict:
    data = json.loads((OUTPUTS / name).read_text(encoding="utf-8"))
    strip(data)
    return data


SPEAKERLESS = {
    "whisper-cpp -ojf without -di": ("whisper_cpp_diarize.json",
        lambda d: [t.pop("speaker") for t in d["transcription"]]),
    "Azure without diarization": ("azure_batch_diarized.json",
        lambda d: [p.pop("speaker") for p in d["recognizedPhrases"]]),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(SPEAKERLESS))
def test_an_output_without_speakers_is_scored_as_one_speaker(case: str, tmp_path: Path):
    """As meeteval scores it: the same words given to one speaker, with the note."""
    from meeteval.io import SegLST
    from meeteval.wer import cpwer

    from msbench.io.read import read_output

    name, strip = SPEAKERLESS[case]
    path = tmp_path / "u.json"
    path.write_text(json.dumps(_without_speakers(name, strip)), encoding="utf-8")
    reference = [{"session_id": "u", "speaker": w, "start_time": s, "end_time": e, "words": t}
                 for w, s, e, t in (("A", 0.5, 2.25, "hello there friend"),
                                    ("B", 2.5, 4.0, "hi how are you"),
                                    ("A", 4.5, 6.125, "fine thanks"))]  # fmt: skip
    report = msbench.score(reference, path)
    assert report.notes[0].startswith("no speaker labels: scored as one speaker")
    one = [{**s.to_seglst(), "speaker": "x", "words": " ".join(tokenize(s.words))}
           for s in read_output(path, session="u").segments]  # fmt: skip
    theirs = cpwer(SegLST(reference), SegLST(one))["u"]
    assert report["cpwer"]["errors"] == theirs.errors and theirs.errors >= 4
    assert report["wer"]["errors"] < report["cpwer"]["errors"]


def test_a_deepgram_and_a_whisperx_result_without_speakers_are_scored(tmp_path: Path):
    words = [("hello", 0.5, 0.9), ("there", 1.0, 1.4), ("hi", 2.5, 2.8)]
    deepgram = {"results": {"channels": [{"alternatives": [{"words": [
        {"word": w, "punctuated_word": w, "start": s, "end": e} for w, s, e in words]}]}]}}  # fmt: skip
    whisperx = {"segments": [{"start": s, "end": e, "text": w} for w, s, e in words]}
    reference = [{"session_id": "u", "speaker": "A", "start_time": 0.5, "end_time": 1.4,
                  "words": "hello there"}, {"session_id": "u", "speaker": "B",
                  "start_time": 2.5, "end_time": 2.8, "words": "hi"}]  # fmt: skip
    for name, data in (("deepgram", deepgram), ("whisperx", whisperx)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        report = msbench.score(reference, path)
        assert report.read["hyp"]["format"] == name
        assert report["wer"]["errors"] == 0 and report["cpwer"]["errors"] == 2, name
        assert "no speaker labels" in report.notes[0]


def test_some_segments_without_a_speaker_stay_refused():
    from msbench.errors import InputError

    hypothesis = [{"session_id": "u", "speaker": "A", "start_time": 0, "end_time": 1, "words": "a"},
                  {"session_id": "u", "speaker": None, "start_time": 1, "end_time": 2,
                   "words": "b"}]  # fmt: skip
    with pytest.raises(InputError, match="segment 1: empty speaker label"):
        msbench.score(hypothesis[:1], hypothesis)


#: The model's own parser tests (OpenMOSS/MOSS-Transcribe-Diarize tests/test_transcript_parser.py,
#: Apache-2.0): each transcript and the segments that parser gives it.
MOSS_CASES = {
    "[0.48][S01]Welcome[1.66][12.26][S02]Ready[13.81]":
        [(0.48, 1.66, "S01", "Welcome"), (12.26, 13.81, "S02", "Ready")],
    "[0.48][S01]你好[1.66][12.26][S02]可以开始[13.81]":
        [(0.48, 1.66, "S01", "你好"), (12.26, 13.81, "S02", "可以开始")],
    "[0][S01]第[2024]年，编号[001]继续[4]": [(0.0, 4.0, "S01", "第[2024]年，编号[001]继续")],
    "[0.0]單一說話者片段[2.0][2.0]下一段[3.0]":
        [(0.0, 2.0, "S01", "單一說話者片段"), (2.0, 3.0, "S01", "下一段")],
    "[0][S01]a[1]\n [2][S02]b[3]": [(0.0, 1.0, "S01", "a"), (2.0, 3.0, "S02", "b")],
    "[0.48][S01]see section [3] now[1.66][2.0][S02]ok[3.0]":
        [(0.48, 1.66, "S01", "see section [3] now"), (2.0, 3.0, "S02", "ok")],
}  # fmt: skip


@pytest.mark.parametrize("text", sorted(MOSS_CASES))
def test_moss_brackets_give_the_model_parsers_segments(text: str, tmp_path: Path):
    from msbench.io.read import read_output

    path = tmp_path / "u.txt"
    path.write_text(text, encoding="utf-8")
    segments = read_output(path, "moss", session="u").segments
    assert [(s.start_time, s.end_time, s.speaker, s.words) for s in segments] == MOSS_CASES[text]
