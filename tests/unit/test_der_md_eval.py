"""DER against md-eval-22.pl itself and pyannote.metrics, by convention (msbench.scoring.der).

* ``md-eval``: equal to md-eval's own report (dscore's command, ``-af -c C -u
  UEM``) on 320 seeded sessions (10 ms grid; touching and zero-length
  reference segments, a speaker's own overlap, 1 to 3 UEM spans, perturbed or
  independent system outputs) and on real word-level RTTMs (AMI's
  ``only_words``, 12 meetings, with seeded system outputs), at collar 0.25 s
  and 0.
* ``boundaries`` (the default): equal to pyannote.metrics' DER (collar=0.5)
  on the un-merged segments wherever no speaker overlaps itself (300 or more
  of 1,400 seeded sessions).
* the issue's two small cases, each convention with its measured value.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from msbench.records import Segment
from msbench.scoring.der import diarization_error
from msbench.timeline import SpeakerTimeline, to_micros
from tests.helpers.md_eval import Turns, run_md_eval
from tests.helpers.paths import SHARED_DATA, require_shared

KEYS = ("missed", "false_alarm", "confusion", "scored")
AMI_RTTMS = SHARED_DATA / "ami-annotations" / "only_words" / "rttms"


def _t(centis: int) -> str:
    return f"{centis / 100:.2f}"


def seeded_session(seed: int) -> tuple[Turns, Turns, list[tuple[str, str, str]]]:
    """One session ``c{seed}``: reference, system and UEM as RTTM text fields."""
    rng = random.Random(seed)
    name = f"c{seed}"
    ref: Turns = []
    for k in range(rng.randint(1, 6)):
        cursor = rng.randint(0, 1000)
        for _ in range(rng.randint(1, 6)):
            start = cursor + rng.choice([0, 0, rng.randint(1, 400)])  # touching half the time
            length = 0 if rng.random() < 0.07 else rng.randint(10, 800)
            if rng.random() < 0.05:  # a speaker's own overlap
                start = max(0, start - rng.randint(1, 200))
            ref.append((name, f"S{k}", _t(start), _t(length)))
            cursor = start + length
    sys_: Turns = []
    if rng.random() < 0.75:  # a perturbed copy
        rename = {f"S{k}": f"h{rng.randint(0, 5)}" for k in range(6)}
        sys_ = perturbed(ref, rename, rng)
    else:
        for _ in range(rng.randint(0, 12)):
            a = rng.randint(0, 5000)
            sys_.append((name, f"h{rng.randint(0, 4)}", _t(a), _t(rng.randint(10, 900))))
    spans, cursor = [], rng.randint(0, 300)
    for _ in range(rng.randint(1, 3)):
        end = cursor + rng.randint(500, 4000)
        spans.append((name, _t(cursor), _t(end)))
        cursor = end + rng.randint(0, 500)
    return ref, sys_, spans


def ours(
    reference: Turns, system: Turns, uem: list[tuple[str, str, str]], collar: float, convention: str
) -> dict[str, float]:
    def segments(turns: Turns) -> list[Segment]:
        return [
            Segment(s, float(a), round(float(a) + float(d), 6), spk, None) for s, spk, a, d in turns
        ]

    ref = segments(reference)
    boundaries = [(to_micros(s.start_time), to_micros(s.end_time)) for s in ref]
    spans = [(float(a), float(b)) for _, a, b in uem]
    error = diarization_error(
        SpeakerTimeline.of(ref), SpeakerTimeline.of(segments(system)), spans, collar,
        boundaries, convention,
    )  # fmt: skip
    return {key: getattr(error, key) for key in KEYS}


def _compare(found: dict[str, float], expected: dict[str, float]) -> bool:
    return all(abs(found[k] - expected[k]) < 2e-6 for k in KEYS)


@pytest.mark.parametrize("collar", [0.25, 0.0])
def test_md_eval_convention_equals_md_eval_on_320_seeded_sessions(collar: float, tmp_path: Path):
    cases = [seeded_session(seed) for seed in range(320)]
    reference = [t for ref, _, _ in cases for t in ref]
    system = [t for _, sys_, _ in cases for t in sys_]
    uem = [span for _, _, spans in cases for span in spans]
    report = run_md_eval(reference, system, uem, collar, tmp_path)
    differ, compared = [], 0
    for ref, sys_, spans in cases:
        found = ours(ref, sys_, spans, collar, "md-eval")
        name = spans[0][0]
        if name not in report:  # md-eval reports no file without reference speech
            assert found["scored"] == 0, name
            continue
        compared += 1
        if not _compare(found, report[name]):
            differ.append((name, found, report[name]))
    assert compared >= 300
    assert not differ, differ[:3]


def test_the_conventions_differ_where_the_issue_measured_them(tmp_path: Path):
    """Touching segments of one speaker, a zero-length segment: each convention's number."""
    uem = [("ex", "0", "7")]
    touching = ([("ex", "A", "1.0", "2.0"), ("ex", "A", "3.0", "2.0")], [("ex", "x", "1.0", "1.9")])
    zero = ([("ex", "A", "1.0", "4.0"), ("ex", "B", "3.0", "0.0")], [("ex", "x", "1.0", "3.0")])

    def rate(case: tuple[Turns, Turns], convention: str) -> float:
        parts = ours(*case, uem, 0.25, convention)
        return round(
            (parts["missed"] + parts["false_alarm"] + parts["confusion"]) / parts["scored"], 3
        )

    assert [rate(touching, c) for c in ("boundaries", "md-eval", "merged-turns")] == [
        0.5,
        0.5,
        0.529,
    ]
    assert [rate(zero, c) for c in ("boundaries", "md-eval")] == [0.214, 0.25]
    for case, expected in ((touching, 0.5), (zero, 0.25)):
        found = run_md_eval(*case, uem, 0.25, tmp_path)["ex"]
        assert round(sum(found[k] for k in KEYS[:3]) / found["scored"], 3) == expected


def ami_meetings(count: int) -> dict[str, Turns]:
    by_meeting: dict[str, Turns] = {}
    for split in ("dev", "test"):
        for line in (AMI_RTTMS / f"{split}.rttm").read_text().splitlines():
            f = line.split()
            by_meeting.setdefault(f[1], []).append((f[1], f[7], f[3], f[4]))
    return dict(sorted(by_meeting.items())[:count])


def system_for(reference: Turns, seed: int) -> Turns:
    """A seeded system output: boundaries moved up to 0.3 s, 10 % of turns dropped, labels merged."""
    rng = random.Random(seed)
    labels = sorted({spk for _, spk, _, _ in reference})
    rename = {spk: f"sys{rng.randint(0, max(1, len(labels) - 2))}" for spk in labels}
    return perturbed(reference, rename, rng)


def perturbed(reference: Turns, rename: dict[str, str], rng: random.Random) -> Turns:
    """The reference with 10 % of turns dropped, boundaries moved up to 0.3 s, labels renamed."""
    out: Turns = []
    for session, speaker, start, length in reference:
        if rng.random() < 0.1:
            continue
        a = max(0, round(float(start) * 100) + rng.randint(-30, 30))
        b = max(a, round((float(start) + float(length)) * 100) + rng.randint(-30, 30))
        out.append((session, rename[speaker], _t(a), _t(b - a)))
    return out


@pytest.mark.parametrize("collar", [0.25, 0.0])
def test_md_eval_convention_equals_md_eval_on_real_ami_word_level_rttms(
    collar: float, tmp_path: Path
):
    require_shared(AMI_RTTMS)
    meetings = ami_meetings(12)
    reference = [t for turns in meetings.values() for t in turns]
    system = [t for k, turns in enumerate(meetings.values()) for t in system_for(turns, k)]
    uem = [
        (name, "0", _t(max(round((float(a) + float(d)) * 100) for _, _, a, d in turns) + 100))
        for name, turns in meetings.items()
    ]
    report = run_md_eval(reference, system, uem, collar, tmp_path)
    assert set(report) >= set(meetings)
    for k, (name, turns) in enumerate(meetings.items()):
        found = ours(
            turns, system_for(turns, k), [u for u in uem if u[0] == name], collar, "md-eval"
        )
        assert _compare(found, report[name]), (name, found, report[name])


def _self_overlap(turns: Turns) -> bool:
    by_speaker: dict[str, list[tuple[float, float]]] = {}
    for _, spk, a, d in turns:
        if float(d) > 0:
            by_speaker.setdefault(spk, []).append((float(a), float(a) + float(d)))
    for spans in by_speaker.values():
        spans.sort()
        if any(spans[k + 1][0] < spans[k][1] - 1e-9 for k in range(len(spans) - 1)):
            return True
    return False


def test_boundaries_convention_equals_pyannote_on_unmerged_segments():
    from pyannote.core import Annotation, Timeline
    from pyannote.core import Segment as Interval
    from pyannote.metrics.diarization import DiarizationErrorRate

    def annotation(turns: Turns) -> Annotation:
        out = Annotation()
        for k, (_, spk, a, d) in enumerate(turns):
            if float(d) > 0:
                out[Interval(float(a), round(float(a) + float(d), 2)), f"t{k}"] = spk
        return out

    compared = 0
    for seed in range(1400):
        ref, sys_, spans = seeded_session(seed)
        if _self_overlap(ref) or _self_overlap(sys_):
            continue  # pyannote counts a speaker's own overlap twice (msbench: once, as md-eval)
        compared += 1
        uem = Timeline([Interval(float(a), float(b)) for _, a, b in spans])
        parts = DiarizationErrorRate(collar=0.5, skip_overlap=False)(
            annotation(ref), annotation(sys_), uem=uem, detailed=True
        )
        expected = {
            "missed": parts["missed detection"], "false_alarm": parts["false alarm"],
            "confusion": parts["confusion"], "scored": parts["total"],
        }  # fmt: skip
        found = ours(ref, sys_, spans, 0.25, "boundaries")
        assert all(abs(found[k] - expected[k]) < 1e-6 for k in KEYS), (seed, found, expected)
    assert compared >= 300
