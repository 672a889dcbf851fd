"""The ``md-eval`` DER convention against md-eval-22.pl itself on 1,000 seeded sessions with
multi-span UEMs separated by narrow gaps (0.01 to 1 s) and turns, zero-length ones included,
starting at or near the spans' edges; collars 0.25 s and 0.

Every session md-eval scores is equal, with one documented exception: where two speaker
mappings share the greatest overlap, md-eval's Kuhn-Munkres (over its floating-point sums, in
name order) and scipy's may pick different ones, and under a collar the two can differ in
confusion. For such a session the test proves the tie: md-eval's mapping (its ``-m`` report)
has the greatest total overlap inside the UEM (counted here, apart, in centiseconds), and
msbench scoring with md-eval's mapping gives md-eval's four numbers exactly.
"""

from __future__ import annotations

import random
from itertools import permutations
from pathlib import Path

import pytest

from msbench.records import Segment
from msbench.scoring.der import diarization_error
from msbench.timeline import SpeakerTimeline, to_micros
from tests.helpers.md_eval import Turns, run_md_eval
from tests.unit.test_der_md_eval import KEYS, _compare, _t, perturbed

# md-eval-22.pl in Perl on 1,000 narrow-gap UEMs, about 45 s: CI runs it, the inner loop
# (-m 'not slow') does not
pytestmark = pytest.mark.slow

CASES = 1000


def narrow_session(seed: int) -> tuple[Turns, Turns, list[tuple[str, str, str]]]:
    """Session ``n{seed}``: 2 to 5 UEM spans with narrow gaps; turns near their edges."""
    rng = random.Random(seed)
    name = f"n{seed}"
    spans, cursor = [], rng.randint(0, 300)
    for _ in range(rng.randint(2, 5)):
        end = cursor + rng.randint(30, 600)
        spans.append((name, _t(cursor), _t(end)))
        cursor = end + rng.choice([rng.randint(1, 100), rng.randint(20, 90), 40, 90])
    edges = [int(round(float(x) * 100)) for _, a, b in spans for x in (a, b)]
    ref: Turns = []
    for k in range(rng.randint(1, 6)):
        for _ in range(rng.randint(1, 10)):
            if rng.random() < 0.3:
                start = rng.choice(edges) + rng.choice([-30, -10, -5, 0, 0, 5, 10, 30])
            else:
                start = rng.randint(0, cursor)
            length = 0 if rng.random() < 0.15 else rng.randint(5, 400)
            ref.append((name, f"S{k}", _t(max(0, start)), _t(length)))
    rename = {f"S{k}": f"h{rng.randint(0, 5)}" for k in range(6)}
    if rng.random() < 0.7:
        sys_ = perturbed(ref, rename, rng)
    else:
        sys_ = [
            (name, f"h{rng.randint(0, 4)}", _t(rng.randint(0, cursor)), _t(rng.randint(10, 500)))
            for _ in range(rng.randint(0, 10))
        ]
    return ref, sys_, spans


def segments(turns: Turns) -> list[Segment]:
    return [Segment(s, float(a), round(float(a) + float(d), 6), k, None) for s, k, a, d in turns]


def scored(ref: Turns, sys_: Turns, spans, collar: float, mapping=None) -> dict[str, float]:
    reference = segments(ref)
    boundaries = [(to_micros(s.start_time), to_micros(s.end_time)) for s in reference]
    error = diarization_error(
        SpeakerTimeline.of(reference), SpeakerTimeline.of(segments(sys_)),
        [(float(a), float(b)) for _, a, b in spans], collar, boundaries, "md-eval", mapping,
    )  # fmt: skip
    return {key: getattr(error, key) for key in KEYS}


def centis(turns: Turns, speaker: str, spans) -> set[int]:
    """The centiseconds (inside the UEM) a speaker talks in, counted apart from msbench."""
    inside = {c for _, a, b in spans for c in range(round(float(a) * 100), round(float(b) * 100))}
    talk = {
        c
        for _, k, a, d in turns
        if k == speaker
        for c in range(round(float(a) * 100), round(float(a) * 100) + round(float(d) * 100))
    }
    return talk & inside


def best_overlap(ref: Turns, sys_: Turns, spans) -> tuple[int, dict[tuple[str, str], int]]:
    """The greatest total overlap of any one-to-one mapping, by trying them all."""
    refs, hyps = sorted({t[1] for t in ref}), sorted({t[1] for t in sys_})
    joint = {
        (r, h): len(centis(ref, r, spans) & centis(sys_, h, spans)) for r in refs for h in hyps
    }
    small, large = (refs, hyps) if len(refs) <= len(hyps) else (hyps, refs)
    best = 0
    for chosen in permutations(large, len(small)):
        pairs = zip(small, chosen, strict=True)
        total = sum(joint[(a, b) if small is refs else (b, a)] for a, b in pairs)
        best = max(best, total)
    return best, joint


@pytest.mark.parametrize("collar", [0.25, 0.0])
def test_md_eval_convention_equals_md_eval_on_narrow_uem_gaps(collar: float, tmp_path: Path):
    cases = [narrow_session(seed) for seed in range(CASES)]
    maps: dict[str, dict[str, str]] = {}
    report = run_md_eval(
        [t for r, _, _ in cases for t in r], [t for _, s, _ in cases for t in s],
        [u for _, _, spans in cases for u in spans], collar, tmp_path, maps,
    )  # fmt: skip
    compared, ties = 0, []
    for ref, sys_, spans in cases:
        name = spans[0][0]
        found = scored(ref, sys_, spans, collar)
        if name not in report:  # md-eval reports no file without reference speech
            assert found["scored"] == 0, name
            continue
        compared += 1
        if _compare(found, report[name]):
            continue
        best, joint = best_overlap(ref, sys_, spans)
        theirs = sum(joint.get(pair, 0) for pair in maps[name].items())
        assert theirs == best, (name, "md-eval's mapping is not an optimal one", maps[name])
        assert _compare(scored(ref, sys_, spans, collar, maps[name]), report[name]), name
        ties.append(name)
    assert compared >= 900
    # ties broken apart are rare: when written, 1 of 1,000 at 0.25 s (n874), none at 0 s
    assert ties == (["n874"] if collar == 0.25 else []), ties
