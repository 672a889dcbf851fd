"""Scoring: the tokenizer, formats, DER against pyannote's published values and a brute-force
frame count, the collar convention, meeteval parity, chunking, exclusions and degradations."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from msbench.errors import InputError
from msbench.io.read import detect_format, read_segments
from msbench.records import Segment
from msbench.scoring.checks import degradations, language_mismatch, structural_problem
from msbench.scoring.der import diarization_error
from msbench.scoring.pair import score_session
from msbench.scoring.pipeline import score_pair
from msbench.scoring.tokenizer import tokenize
from msbench.scoring.units import Unit, fixed_chunks, unit_reference
from msbench.timeline import SpeakerTimeline
from tests.helpers.paths import SHARED_DATA, require_shared

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core


def line(segments: list[Segment]) -> SpeakerTimeline:
    """A side as scoring hands it to DER: each speaker's merged turns."""
    return SpeakerTimeline.of(segments)


def seg(
    speaker: str, start: float, end: float, words: str | None = None, session: str = "s"
) -> Segment:
    return Segment(session, start, end, speaker, words)


# --- tokenizer -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("我们今天讨论 the agenda", ["我", "们", "今", "天", "讨", "论", "the", "agenda"]),
        ("Ｆｕｌｌ-width ２０２６ digits", ["full", "width", "2026", "digits"]),
        ("好的，<sil>。[noise]!嗯", ["好", "的", "嗯"]),
        ("<pause>Hello,[unintelligible] world.", ["hello", "world"]),
        ("&嗯&对 it's OK", ["对", "it's", "ok"]),
        (
            "ありがとうございます Tokyo",
            ["あ", "り", "が", "と", "う", "ご", "ざ", "い", "ま", "す", "tokyo"],
        ),
        ("안녕하세요", ["안", "녕", "하", "세", "요"]),
    ],
)
def test_mixed_tokenizer_hand_cases(text: str, tokens: list[str]):
    assert tokenize(text) == tokens


def test_whitespace_tokenizer_leaves_the_text_as_given():
    assert tokenize("Hello, World!  我们", "whitespace") == ["Hello,", "World!", "我们"]


def test_traditional_to_simplified_is_optional():
    assert tokenize("這裡", traditional_to_simplified=True) == ["这", "里"]
    assert tokenize("這裡") == ["這", "裡"]


# --- formats ---------------------------------------------------------------------------------


def test_formats_are_detected_from_content(tmp_path: Path):
    assert detect_format("SPEAKER a 1 0.0 1.0 <NA> <NA> A <NA> <NA>\n") == "rttm"
    assert detect_format("a 1 A 0.0 1.0 hello there\n") == "stm"
    assert detect_format("a A 0.00 0.30 hello\na A 0.30 0.20 there\n") == "ctm"
    assert detect_format('[{"session_id": "a", "start_time": 0}]') == "seglst"
    assert detect_format("[00:01.20 - 00:04.56] Speaker 1: hello\n") == "text"


def test_timestamped_text_as_llms_write_it(tmp_path: Path):
    path = tmp_path / "u.txt"
    path.write_text(
        "[00:01.20 - 00:04.56] Speaker 1: hello there\n\n"
        "[0:00:05.00 --> 0:00:06.50] SPEAKER_02: 好的\n[7.0 - 8.5] S1： ok\n"
    )
    segments = read_segments(path, session="u")
    assert [(s.speaker, s.start_time, s.end_time, s.words) for s in segments] == [
        ("Speaker 1", 1.2, 4.56, "hello there"),
        ("SPEAKER_02", 5.0, 6.5, "好的"),
        ("S1", 7.0, 8.5, "ok"),
    ]
    path.write_text("[00:01.20 - 00:04.56] Speaker 1: hello\nI cannot transcribe this audio.\n")
    with pytest.raises(InputError, match=r"u.txt:line 2: cannot parse 'I cannot transcribe"):
        read_segments(path, "text", session="u")


# --- DER -------------------------------------------------------------------------------------

PYANNOTE_REFERENCE = [seg("A", 0, 10), seg("B", 12, 20), seg("A", 24, 27), seg("C", 30, 40)]
PYANNOTE_HYPOTHESIS = [
    seg("a", 2, 13),
    seg("d", 13, 14),
    seg("b", 14, 20),
    seg("c", 22, 38),
    seg("d", 38, 40),
]


def test_der_matches_pyannote_metrics_published_expectations():
    # pyannote-metrics tests/test_diarization.py: DER 0.516129, confusion 7, FA 7, missed 2, total 31
    der = diarization_error(
        line(PYANNOTE_REFERENCE), line(PYANNOTE_HYPOTHESIS), [(0, 40)], collar=0.0
    )
    assert der.error_rate == pytest.approx(0.5161290322580645, abs=1e-7)
    assert (der.confusion, der.false_alarm, der.missed, der.scored) == pytest.approx((7, 7, 2, 31))


def test_collar_is_a_half_width():
    # pyannote's own test_bug_16: collar=1 (its total width) leaves 9 of 10 s; ours is 0.5 each side
    der = diarization_error(line([seg("A", 0, 10)]), line([]), [(0, 10)], collar=0.5)
    assert der.scored == pytest.approx(9.0)
    from pyannote.core import Annotation, Timeline
    from pyannote.core import Segment as Interval
    from pyannote.metrics.diarization import DiarizationErrorRate

    ref, hyp = Annotation(), Annotation()
    for k, s in enumerate(PYANNOTE_REFERENCE):
        ref[Interval(s.start_time, s.end_time), k] = s.speaker
    for k, s in enumerate(PYANNOTE_HYPOTHESIS):
        hyp[Interval(s.start_time, s.end_time), k] = s.speaker
    theirs = DiarizationErrorRate(collar=0.5)(ref, hyp, uem=Timeline([Interval(0, 40)]))
    ours = diarization_error(
        line(PYANNOTE_REFERENCE), line(PYANNOTE_HYPOTHESIS), [(0, 40)], collar=0.25
    )
    assert ours.error_rate == pytest.approx(theirs, abs=1e-9)


def test_false_alarm_outside_the_reference_counts_with_a_uem():
    hyp = [seg("x", 0, 1), seg("x", 2, 4), seg("x", 6, 8)]
    der = diarization_error(line([seg("A", 2, 4)]), line(hyp), [(0, 10)], 0.0)
    assert der.false_alarm == pytest.approx(3.0)


def brute_force_der(
    reference: list[Segment], hypothesis: list[Segment], end: int
) -> tuple[float, float]:
    """Frame-level (10 ms) DER with the best one-to-one speaker mapping found by enumeration."""
    frames = end * 100
    ref_speakers = sorted({s.speaker for s in reference})
    hyp_speakers = sorted({s.speaker for s in hypothesis})

    def activity(segments, speakers):
        grid = np.zeros((len(speakers), frames), dtype=bool)
        for s in segments:
            grid[speakers.index(s.speaker), round(s.start_time * 100) : round(s.end_time * 100)] = (
                True
            )
        return grid

    ref, hyp = activity(reference, ref_speakers), activity(hypothesis, hyp_speakers)
    n_ref, n_hyp = ref.sum(axis=0), hyp.sum(axis=0)
    best = 0
    for perm in itertools.permutations(
        range(max(len(ref_speakers), len(hyp_speakers))), len(hyp_speakers)
    ):
        correct = sum((hyp[h] & ref[r]).sum() for h, r in enumerate(perm) if r < len(ref_speakers))
        best = max(best, correct)
    errors = np.maximum(n_ref, n_hyp).sum() - best
    return errors / 100, n_ref.sum() / 100


@pytest.mark.parametrize("seed", range(12))
def test_der_against_brute_force_frames(seed: int):
    rng = np.random.default_rng(seed)

    def timeline(speakers: str) -> list[Segment]:
        out = []
        for _ in range(int(rng.integers(1, 8))):
            start = int(rng.integers(0, 1800))
            out.append(
                seg(
                    speakers[int(rng.integers(0, len(speakers)))],
                    start / 100,
                    (start + int(rng.integers(10, 400))) / 100,
                )
            )
        return out

    reference, hypothesis = timeline("ABC"), timeline("xyz")
    der = diarization_error(line(reference), line(hypothesis), [(0, 25)], collar=0.0)
    errors, total = brute_force_der(reference, hypothesis, 25)
    assert der.scored == pytest.approx(total, abs=1e-6)
    assert der.missed + der.false_alarm + der.confusion == pytest.approx(errors, abs=1e-6)


# --- the WER family ------------------------------------------------------------------------------

REF = [
    seg("A", 0, 3, "one two three four"),
    seg("B", 2, 5, "five six seven"),
    seg("A", 6, 8, "eight nine"),
]


def test_perfect_hypothesis_scores_zero_everywhere():
    hyp = [seg({"A": "x", "B": "y"}[s.speaker], s.start_time, s.end_time, s.words) for s in REF]
    scores = score_pair(REF, hyp)
    assert all(scores[k]["error_rate"] == 0.0 for k in ("cpwer", "tcpwer", "wer", "tcorcwer"))
    assert scores["der"]["error_rate"] == 0.0 and scores["der_collar0"]["error_rate"] == 0.0


def test_planted_errors_give_their_counts():
    hyp = [
        seg("x", 0, 3, "one zz three four extra"),  # 1 substitution, 1 insertion
        seg("y", 2, 5, "five seven"),  # 1 deletion
        seg("y", 6, 8, "eight nine"),  # speaker swap: A's words given to y
    ]
    scores = score_pair(REF, hyp)
    cp, wer = scores["cpwer"], scores["wer"]
    assert (wer["substitutions"], wer["insertions"], wer["deletions"]) == (1, 1, 1)
    # the swap: A's "eight nine" sits in y's stream: A = [one two three four eight nine] vs
    # x = [one zz three four extra] (2 S, 1 D); B = [five six seven] vs y = [five seven eight
    # nine] (1 D, 2 I): 6 errors, where the speaker-agnostic WER sees the 3 planted
    assert cp["errors"] == 6 and cp["length"] == 9
    assert scores["tcorcwer"]["errors"] == 3


def test_cpwer_and_tcpwer_equal_meeteval_command_line(tmp_path: Path):
    ref = tmp_path / "ref.stm"
    hyp = tmp_path / "hyp.stm"
    ref.write_text(
        "s 1 A 0.0 3.0 one two three four\ns 1 B 2.0 5.0 five six seven\ns 1 A 6.0 8.0 eight nine\n"
    )
    hyp.write_text(
        "s 1 x 0.0 3.0 one zz three four extra\ns 1 y 2.0 5.0 five seven\ns 1 y 20.0 22.0 eight nine\n"
    )
    ours = score_pair(read_segments(ref), read_segments(hyp), tokenizer="whitespace")
    for metric in ("cpwer", "tcpwer"):
        extra = ["--collar", "5"] if metric == "tcpwer" else []
        out = tmp_path / f"{metric}.json"
        subprocess.run(
            [
                str(Path(sys.executable).parent / "meeteval-wer"),
                metric,
                "-r",
                str(ref),
                "-h",
                str(hyp),
                "--average-out",
                str(out),
                *extra,
            ],
            check=True,
            capture_output=True,
        )
        theirs = json.loads(out.read_text())
        for key in ("errors", "length", "insertions", "deletions", "substitutions"):
            assert ours[metric][key] == theirs[key], (metric, key)


def test_demo_reference_against_its_own_ctm_words():
    """Real AMI words: the CTM is the STM's words, so cpWER and tcORC-WER are 0."""
    folder = require_shared(SHARED_DATA / "ami-30s-words" / "per-clip")
    scores = score_pair(
        read_segments(folder / "dev00.stm"),
        read_segments(folder / "dev00.ctm"),
        {"dev00": [(0, 30)]},
    )
    assert (
        scores["cpwer"]["errors"] == 0
        and scores["tcorcwer"]["errors"] == 0
        and scores["cpwer"]["length"] == 65
    )


# --- units, exclusions, degradations ------------------------------------------------------------


def test_one_unit_spanning_the_recording_scores_as_the_recording():
    hyp = [
        seg("x", 0, 3, "one two tree four"),
        seg("y", 2, 5, "five six seven"),
        seg("x", 6, 8, "eight"),
    ]
    whole = score_pair(REF, hyp, {"s": [(0, 8)]})
    (unit,) = fixed_chunks([("c::s", ((0.0, 8.0),))], 100.0)
    reference = unit_reference(REF, unit)
    chunk = score_session(reference, hyp, unit.uem, "s", 0.25)
    assert chunk.to_dict()["cpwer"] == whole["cpwer"] and chunk.to_dict()["der"] == whole["der"]


def test_reference_goes_to_the_unit_holding_its_midpoint():
    first, second = Unit("u0", "c::s", 0, 4), Unit("u1", "c::s", 4, 8)
    assert unit_reference(REF, first) == REF[:2]  # midpoints 1.5 and 3.5
    assert unit_reference(REF, second) == REF[2:]


def test_exclusion_rules():
    assert structural_problem([seg("", 0, 1, "x")]).startswith("incomplete")
    assert structural_problem([seg("A", 2, 1, "x")]).startswith("incomplete")
    assert language_mismatch("这是中文", "English") is not None
    assert language_mismatch("this is English", "Chinese") is not None
    assert language_mismatch("这是中文 ok", "Chinese") is None


def test_soft_degradation_rules():
    loop = ["all", "right", "then"] * 12
    assert any(
        r.startswith("repetition")
        for r in degradations([seg("x", 0, 8, " ".join(loop))], REF, loop)
    )
    one = [seg("x", 0, 8, "one two three four five six seven eight nine")]
    reasons = degradations(one, REF, tokenize(one[0].words))
    assert any(r.startswith("one_speaker") for r in reasons)
    short = [seg("x", 0, 0.5, "one"), seg("y", 2, 2.2, "five")]
    assert any(r.startswith("short") for r in degradations(short, REF, ["one", "five"]))
    assert (
        degradations(
            [seg("x", s.start_time, s.end_time, s.words) for s in REF[:2]]
            + [seg("y", 6, 8, "eight nine")],
            REF,
            tokenize("one two"),
        )
        == []
    )


def test_a_system_folder_with_every_kind_of_bad_unit(tmp_path: Path):
    """Missing, refused, unparseable, incomplete, wrong language, repetitive: each its status."""
    from msbench.scoring.evaluate import SystemSpec, evaluate_units

    units = [Unit(f"c__s{k}", f"c::s{k}", 0.0, 8.0) for k in range(7)]
    references = {u.recording_id: REF for u in units}
    out = tmp_path / "sys"
    out.mkdir()
    good = "".join(f"[{s.start_time} - {s.end_time}] {s.speaker}: {s.words}\n" for s in REF)
    (out / "c__s0.txt").write_text(good)
    (out / "c__s2.refused").write_text("the model declined\n")
    (out / "c__s3.txt").write_text("[0.0 - 3.0] A: one two\nSorry, I cannot help with that.\n")
    (out / "c__s4.stm").write_text("c__s4 1 A 3.0 2.0 one two\n")
    (out / "c__s5.txt").write_text("[0.0 - 8.0] A: 这是中文的输出内容\n")
    (out / "c__s6.txt").write_text(
        "[0.0 - 8.0] A: " + "all right then " * 12 + "\n[2 - 5] B: five six seven\n"
    )
    settings = {"collar": 0.25, "tcp_collar": 5.0, "tokenizer": "mixed-v1"}
    rows = evaluate_units(
        SystemSpec("sys", "sys", out),
        units,
        references,
        {u.recording_id: "English" for u in units},
        settings,
    ).units
    status = {r["unit_id"]: (r["status"], r["reason"].split(":")[0]) for r in rows}
    assert status == {
        "c__s0": ("scored", ""),
        "c__s1": ("excluded", "missing"),
        "c__s2": ("excluded", "refused"),
        "c__s3": ("excluded", "unparseable"),
        "c__s4": ("excluded", "unparseable"),
        "c__s5": ("excluded", "language"),
        "c__s6": ("degraded", ""),
    }
    assert rows[0]["cpwer"] == 0.0 and "line 2" in rows[3]["reason"]
    assert rows[6]["degradation"].startswith("repetition")


def test_score_json_holds_the_diagnostic_contract_keys():
    """The keys scripts read (diagnostics issue), with the planted answer of a hand-made pair."""
    from msbench.scoring.diagnosis.unit import DIAGNOSTIC_KEYS

    hyp = [
        seg("x", 0, 3, "one zz three four extra"),  # 1 S and 1 I inside reference speech
        seg("y", 2, 5, "five seven"),  # 1 D with hypothesised speech around it
        seg("y", 6, 8, "eight nine"),  # A's utterance given to B's stream
        seg("y", 20, 21, "lost words"),  # 2 I in silence: segmentation
    ]
    scores = score_pair(REF, hyp)
    assert set(DIAGNOSTIC_KEYS) <= set(scores) and set(DIAGNOSTIC_KEYS) <= set(
        scores["sessions"][0]
    )
    counts = {k: scores[k] for k in ("s", "i_lex", "i_seg", "d_lex", "d_seg", "n_ref")}
    assert counts == {"s": 1, "i_lex": 1, "i_seg": 2, "d_lex": 1, "d_seg": 0, "n_ref": 9}
    assert scores["e_lex"] + scores["e_seg"] == scores["wer"]["error_rate"] == 5 / 9
    assert (scores["utterances"], scores["utterances_attributable"]) == (3, 3)
    assert scores["utterances_misattributed"] == 1 and scores["e_attr"] == 1 / 3
    assert scores["r_time"] == pytest.approx(8 / 7)  # hyp speech 0-5, 6-8, 20-21; ref 0-5, 6-8
