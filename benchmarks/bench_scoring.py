"""How long scoring one 30-minute recording of one system takes, against meeteval's cpWER alone.

A 30-minute reference is built from the 14 real AMI clips with words (their
STM utterances, laid one after another, 60 x 30 s), the hypothesis is the same
with one word in ten substituted and the speakers renamed. Printed: seconds for
our full scoring of the unit (DER at both collars, cpWER, tcpWER, WER, ORC-WER),
seconds for meeteval's cpWER alone on the same tokens (the reference), the
ratio, and x real time.

    taskset -c 0 python benchmarks/bench_scoring.py
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from msbench.records import Segment  # noqa: E402
from msbench.scoring.formats import read_segments  # noqa: E402
from msbench.scoring.pair import score_session  # noqa: E402
from msbench.scoring.tokenizer import tokenize  # noqa: E402
from msbench.scoring.wer import seglst  # noqa: E402

MINUTES = 30


def thirty_minutes() -> tuple[list[Segment], list[Segment]]:
    clips = sorted((REPO / "resources/demo/ami/annotations/words").glob("*.stm"))
    reference, hypothesis = [], []
    for k in range(MINUTES * 2):
        clip = read_segments(clips[k % len(clips)], "stm")
        order = sorted({s.speaker for s in clip})  # four meeting participants throughout
        for s in clip:
            shift = 30.0 * k
            label = f"P{order.index(s.speaker)}"
            moved = replace(
                s,
                session_id="long",
                start_time=s.start_time + shift,
                end_time=s.end_time + shift,
                speaker=label,
            )
            reference.append(moved)
            words = ["zz" if i % 10 == 3 else w for i, w in enumerate((moved.words or "").split())]
            hypothesis.append(replace(moved, speaker="h" + label, words=" ".join(words)))
    return reference, hypothesis


def main() -> int:
    import meeteval

    reference, hypothesis = thirty_minutes()
    tokens = sum(len(tokenize(s.words)) for s in reference)
    started = time.perf_counter()
    scores = score_session(reference, hypothesis, [(0.0, MINUTES * 60.0)], "long", 0.25)
    ours = time.perf_counter() - started
    ref_tokens = [tokenize(s.words) for s in reference]
    hyp_tokens = [tokenize(s.words) for s in hypothesis]
    started = time.perf_counter()
    meeteval.wer.cpwer(
        seglst(reference, "long", ref_tokens), seglst(hypothesis, "long", hyp_tokens)
    )
    cp_only = time.perf_counter() - started
    print(f"{MINUTES}-minute recording, {len(reference)} utterances, {tokens} reference tokens")
    print(
        f"msbench full scoring (DER x2, cpWER, tcpWER, WER, tcORC-WER): {ours:.2f} s = {MINUTES * 60 / ours:.0f}x real time"
    )
    print(f"reference, meeteval cpWER alone: {cp_only:.2f} s; ratio {ours / cp_only:.1f}")
    print(f"cpWER {scores.words.cpwer.error_rate:.4f}, DER {scores.der.error_rate:.4f}")  # type: ignore[union-attr]
    return 0


if __name__ == "__main__":
    sys.exit(main())
