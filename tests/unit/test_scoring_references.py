"""``msbench score`` on the reference tools' own test files gives the reference tools' numbers.

The files are copied unchanged into ``tests/fixtures/reference/`` (meeteval's
``example_files``, SCTK's sclite Mandarin case and md-eval's speaker
diarization tests, dscore's scoring tests; licences in ``THIRD_PARTY_LICENSES``).
The expected numbers are computed here by meeteval and pyannote.metrics, or
read from what the repositories ship (md-eval's ``sd_test*.output.saved``,
dscore's ``test_score.py``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import defaultdict
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from msbench.ingest.adapters import read_uem_spans
from msbench.io.read import read_segments
from msbench.records import Segment
from msbench.scoring.pipeline import score_pair
from msbench.timeline import SpeakerTimeline

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "reference"
MEETEVAL, SCTK, DSCORE = FIXTURES / "meeteval", FIXTURES / "sctk", FIXTURES / "dscore"
COUNTS = ("errors", "length", "substitutions", "insertions", "deletions")


def line(segments: list[Segment]) -> SpeakerTimeline:
    """A side as scoring hands it to DER: each speaker's merged turns."""
    return SpeakerTimeline.of(segments)


def msbench_score(*args: str | Path) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "msbench.cli", "score", *map(str, args)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(done.stdout)


def counts(entry: dict[str, Any]) -> tuple[int, ...]:
    return tuple(entry[k] for k in COUNTS)


# --- meeteval's example files -----------------------------------------------------------------


def test_meeteval_example_files_give_meetevals_numbers():
    """The first reference line is zero-length (``Alice 1 1``, 17 words): its words count."""
    import meeteval

    ours = msbench_score("--ref", MEETEVAL / "ref.stm", "--hyp", MEETEVAL / "hyp.stm",
                         "--tokenizer", "whitespace")  # fmt: skip
    assert (ours["cpwer"]["errors"], ours["cpwer"]["length"]) == (25, 92)
    assert (ours["tcpwer"]["errors"], ours["tcpwer"]["length"]) == (25, 92)
    ref, hyp = (meeteval.io.load(MEETEVAL / n) for n in ("ref.stm", "hyp.stm"))
    theirs = {
        "cpwer": sum(meeteval.wer.cpwer(ref, hyp).values()),
        "tcpwer": sum(
            meeteval.wer.tcpwer(
                ref,
                hyp,
                collar=5,
                ref_pseudo_word_timing="character_based",
                hyp_pseudo_word_timing="character_based_points",
            ).values()
        ),  # fmt: skip
        "orcwer": sum(meeteval.wer.orcwer(ref, hyp).values()),
    }
    for key, result in theirs.items():
        assert counts(ours[key]) == tuple(getattr(result, k) for k in COUNTS), key
    assert any("1 zero-length segment(s) (17 words)" in n for n in ours["notes"])
    # the SegLST writing of the same example scores the same
    seglst = msbench_score("--ref", MEETEVAL / "ref.seglst.json", "--hyp",
                           MEETEVAL / "hyp.seglst.json", "--tokenizer", "whitespace")  # fmt: skip
    assert {k: seglst[k] for k in ("cpwer", "tcpwer", "wer")} == {
        k: ours[k] for k in ("cpwer", "tcpwer", "wer")
    }


def test_meeteval_example_with_its_uem_keeps_what_meeteval_keeps():
    import meeteval

    ours = msbench_score("--ref", MEETEVAL / "ref.stm", "--hyp", MEETEVAL / "hyp.stm",
                         "--uem", MEETEVAL / "uem.uem", "--tokenizer", "whitespace")  # fmt: skip
    ref, hyp = (meeteval.io.load(MEETEVAL / n) for n in ("ref.stm", "hyp.stm"))
    uem = meeteval.io.UEM.load(MEETEVAL / "uem.uem")
    for key, call in (("cpwer", meeteval.wer.cpwer), ("orcwer", meeteval.wer.orcwer)):
        result = sum(call(ref, hyp, uem=uem).values())
        assert counts(ours[key]) == tuple(getattr(result, k) for k in COUNTS), key
    assert any("outside the UEM not scored in the WER family" in n for n in ours["notes"])


def test_meeteval_example_rttms_give_pyannotes_der():
    from pyannote.core import Annotation, Timeline
    from pyannote.core import Segment as Interval
    from pyannote.metrics.diarization import DiarizationErrorRate

    ours = msbench_score("--ref", MEETEVAL / "ref.rttm", "--hyp", MEETEVAL / "hyp.rttm",
                         "--uem", MEETEVAL / "uem.uem", "--collar", "0")  # fmt: skip
    spans = read_uem_spans(str(MEETEVAL / "uem.uem")).strict()
    total = defaultdict(float)
    for session, session_spans in spans.items():
        annotations = []
        for name in ("ref.rttm", "hyp.rttm"):
            annotation = Annotation()
            for k, s in enumerate(read_segments(MEETEVAL / name)):
                if s.session_id == session and s.end_time > s.start_time:
                    annotation[Interval(s.start_time, s.end_time), k] = s.speaker
            annotations.append(annotation)
        uem = Timeline([Interval(a, b) for a, b in session_spans])
        parts = DiarizationErrorRate(collar=0.0)(*annotations, uem=uem, detailed=True)
        for key in ("missed detection", "false alarm", "confusion", "total"):
            total[key] += parts[key]
    der = ours["der"]
    assert der["scored"] == pytest.approx(total["total"], abs=1e-6)
    assert der["missed"] + der["false_alarm"] + der["confusion"] == pytest.approx(
        total["missed detection"] + total["false alarm"] + total["confusion"], abs=1e-6
    )


# --- SCTK: sclite's Mandarin case -------------------------------------------------------------


def test_sclite_mandarin_ctm_and_its_seglst_give_the_same_words(tmp_path: Path):
    """GB2312 files; several CTM words share a start time and keep the file's order."""
    ctm = msbench_score("--ref", SCTK / "mand_ref.stm", "--hyp", SCTK / "mand_hyp.ctm",
                        "--encoding", "gb2312")  # fmt: skip
    assert (ctm["cpwer"]["errors"], ctm["cpwer"]["length"]) == (6, 53)
    words = read_segments(SCTK / "mand_hyp.ctm", encoding="gb2312")
    rows = [s.to_seglst() for s in words]  # one segment per CTM word, in the file's order
    (tmp_path / "hyp.json").write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    seglst = msbench_score("--ref", SCTK / "mand_ref.stm", "--hyp", tmp_path / "hyp.json",
                           "--encoding", "gb2312")  # fmt: skip
    assert {k: seglst[k] for k in ("cpwer", "tcpwer", "wer")} == {
        k: ctm[k] for k in ("cpwer", "tcpwer", "wer")
    }


def test_sclite_mandarin_case_equals_meeteval_on_whitespace_words(tmp_path: Path):
    import meeteval

    for name in ("mand_ref.stm", "mand_hyp.ctm"):
        text = (SCTK / name).read_bytes().decode("gb2312")
        (tmp_path / name).write_text(text, encoding="utf-8")
    ours = msbench_score("--ref", tmp_path / "mand_ref.stm", "--hyp", tmp_path / "mand_hyp.ctm",
                         "--tokenizer", "whitespace")  # fmt: skip
    ref = meeteval.io.load(tmp_path / "mand_ref.stm")
    # meeteval reads a CTM's second field as the channel, one file per speaker: give it
    # the words as SegLST with that field as the speaker, as msbench reads them
    hyp = meeteval.io.SegLST([s.to_seglst() for s in read_segments(tmp_path / "mand_hyp.ctm")])
    result = sum(meeteval.wer.cpwer(ref, hyp).values())
    assert counts(ours["cpwer"]) == tuple(getattr(result, k) for k in COUNTS)


# --- SCTK: md-eval's speaker diarization tests ---------------------------------------------------

#: md-eval's default NON-LEX subtypes that make no-score zones for speaker scoring.
NO_SCORE_NON_LEX = ("breath", "cough", "laugh", "lipsmack", "other", "sneeze")


def md_eval_saved(test: str) -> dict[str, float]:
    """The file-level speaker times of md-eval's saved report (seconds, 2 decimals)."""
    text = (SCTK / f"{test}.output.saved").read_text()
    found = {}
    for key, label in (("scored", "SCORED SPEAKER TIME"), ("missed", "MISSED SPEAKER TIME"),
                       ("false_alarm", "FALARM SPEAKER TIME"), ("confusion", "SPEAKER ERROR TIME")):  # fmt: skip
        found[key] = float(re.search(rf"{label} =\s+([\d.]+) secs", text).group(1))  # type: ignore[union-attr]
    return found


def no_score_zones(rttm: Path) -> list[tuple[Decimal, Decimal]]:
    """md-eval's NON-LEX no-score zones, written out independently of msbench.

    Each NON-LEX token of a no-score subtype is extended by up to 0.5 s on each
    side, but not past the nearest LEXEME or SPEAKER boundary (of any speaker);
    times are exact decimals (a float sum would move a boundary that touches).
    """
    rows = [
        line.split()
        for line in rttm.read_text().splitlines()
        if line.strip() and not line.startswith(";;")
    ]
    boundaries = [
        t for f in rows if f[0] in ("LEXEME", "SPEAKER")
        for t in (Decimal(f[3]), Decimal(f[3]) + Decimal(f[4]))
    ]  # fmt: skip
    zones = []
    for f in rows:
        if f[0] == "NON-LEX" and f[6] in NO_SCORE_NON_LEX:
            start, end = Decimal(f[3]), Decimal(f[3]) + Decimal(f[4])
            before = max((t for t in boundaries if t <= start), default=start - 1)
            after = min((t for t in boundaries if t >= end), default=end + 1)
            zones.append((max(start - Decimal("0.5"), before), min(end + Decimal("0.5"), after)))
    return zones


def uem_minus(uem: Path, zones: list[tuple[Decimal, Decimal]], out: Path) -> None:
    lines = []
    for line in uem.read_text().splitlines():
        session, channel, start, end = line.split()
        pieces = [(Decimal(start), Decimal(end))]
        for a, b in zones:
            pieces = [p for x, y in pieces for p in ((x, min(y, a)), (max(x, b), y)) if p[1] > p[0]]
        lines += [f"{session} {channel} {a} {b}" for a, b in sorted(pieces)]
    out.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("test", ["sd_test1", "sd_test2", "sd_test3", "sd_test4", "sd_test6"])
def test_md_eval_saved_reports_once_its_non_lex_zones_are_left_out(test: str, tmp_path: Path):
    """md-eval's own DER (-c 0.0), to its printed 0.01 s, with its no-score zones as a UEM.

    Without them msbench scores what pyannote.metrics scores: the difference is
    md-eval's NON-LEX exclusion (README "Scoring systems"), for example sd_test1
    scores 9.60 s of speaker time here and 7.80 s in md-eval.
    """
    uem_minus(SCTK / f"{test}.uem", no_score_zones(SCTK / f"{test}.ref.rttm"), tmp_path / "u.uem")
    ours = msbench_score("--ref", SCTK / f"{test}.ref.rttm", "--hyp", SCTK / f"{test}.sys.rttm",
                         "--uem", tmp_path / "u.uem", "--collar", "0")["der"]  # fmt: skip
    saved = md_eval_saved(test)
    for key, value in saved.items():
        assert round(ours[key], 2) == pytest.approx(value, abs=0.0051), (key, ours, saved)


def test_md_eval_multi_span_uem_keeps_every_span():
    """sd_test1.uem gives one file three spans: 9.6 s of speaker time, as pyannote scores it."""
    spans = read_uem_spans(str(SCTK / "sd_test1.uem")).strict()
    assert spans == {"sd_test1": ((10.0, 15.0), (20.0, 24.0), (26.0, 30.0))}
    ours = msbench_score("--ref", SCTK / "sd_test1.ref.rttm", "--hyp", SCTK / "sd_test1.sys.rttm",
                         "--uem", SCTK / "sd_test1.uem", "--collar", "0")["der"]  # fmt: skip
    assert ours["scored"] == 9.6 and ours["error_rate"] == 0.0
    assert md_eval_saved("sd_test1")["scored"] == 7.8  # md-eval: NON-LEX laugh 20.6-22.4 s left out


# --- dscore --------------------------------------------------------------------------------------


def test_dscore_test_files():
    """dscore's test_score.py: DER 26.39309 % on FILE1 with UEM 0-43 s, collar 0."""
    from msbench.scoring.der import diarization_error

    reference, system = read_segments(DSCORE / "ref.rttm"), read_segments(DSCORE / "sys.rttm")
    der = diarization_error(line(reference), line(system), [(0.0, 43.0)], 0.0)
    assert der.error_rate is not None and 100 * der.error_rate == pytest.approx(26.39309, abs=5e-6)
    # dscore's test_uem.py: load_uem of test_load.uem (two spans for FILE1, a comment line)
    spans = read_uem_spans(str(DSCORE / "test_load.uem")).strict()
    assert spans == {"FILE1": ((0.0, 15.0), (25.0, 30.4)), "FILE2": ((4.5, 13.24),)}
    assert score_pair(reference, system, {"FILE1": ((0.0, 43.0),)}, collar=0.0)["der_collar0"][
        "error_rate"
    ] == pytest.approx(der.error_rate)
