"""Seeded long sessions with words for the scoring benchmark: real AMI turn-taking, generated text.

The timing is real: the utterance segments of the AMI meetings in
``../shared/data/ami-annotations/only_words/rttms`` (train, dev and test, 170
meetings), laid one meeting after another until the session lasts the
minutes asked for. Each meeting's speakers take labels from a pool of
``speakers`` so that the session has that many speakers (meeting ``m``'s
``k``-th speaker is ``S{(4m + k) mod speakers}``). Words are generated per
segment at 4.5 tokens per second of segment time (issue 31's
AISHELL-4 session: 53,568 tokens in 225 minutes), English words or Chinese
characters (``language``; separated by spaces, so that meeteval's
splitting and msbench's tokenizer give the same tokens), from a seeded vocabulary of 2,000 items.

The hypothesis is the reference as a fair system would get it wrong, as in
issue 31: 12 % of the tokens substituted, 5 % deleted, every time jittered by
up to 0.3 s, and the speakers relabelled (``H{index}`` in another order).

``python benchmarks/long_transcripts.py --minutes 160 --speakers 14 --out DIR``
writes ``DIR/ref.stm`` and ``DIR/hyp.stm`` (session ``long``).
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RTTMS = REPO.parent / "shared" / "data" / "ami-annotations" / "only_words" / "rttms"
WORDS_PER_SECOND = 4.5
CJK = [chr(c) for c in range(0x4E00, 0x4E00 + 2000)]


@dataclass(frozen=True)
class Line:
    speaker: str
    start: float
    end: float
    words: list[str]


def meetings() -> list[list[tuple[str, float, float]]]:
    """Every AMI meeting's (speaker, start, end) segments, meetings in file order."""
    by_meeting: dict[str, list[tuple[str, float, float]]] = {}
    for split in ("train", "dev", "test"):
        for line in (RTTMS / f"{split}.rttm").read_text().splitlines():
            f = line.split()
            start = float(f[3])
            by_meeting.setdefault(f[1], []).append((f[7], start, round(start + float(f[4]), 2)))
    return list(by_meeting.values())


def vocabulary(language: str, rng: random.Random) -> list[str]:
    if language == "zh":
        return CJK
    letters = "abcdefghijklmnopqrstuvwxyz"
    return sorted({"".join(rng.choices(letters, k=rng.randint(2, 8))) for _ in range(2200)})[:2000]


def reference(minutes: float, speakers: int, language: str = "en", seed: int = 0) -> list[Line]:
    rng = random.Random(seed)
    words = vocabulary(language, rng)
    out: list[Line] = []
    offset, limit = 0.0, minutes * 60
    for m, meeting in enumerate(meetings()):
        order = sorted({s for s, _, _ in meeting})
        length = max(end for _, _, end in meeting)
        for speaker, start, end in meeting:
            if offset + end > limit:
                return out
            label = f"S{(4 * m + order.index(speaker)) % speakers}"
            count = max(1, round((end - start) * WORDS_PER_SECOND))
            tokens = [rng.choice(words) for _ in range(count)]
            out.append(Line(label, round(offset + start, 2), round(offset + end, 2), tokens))
        offset = round(offset + length + 1.0, 2)
    return out


def hypothesis(lines: list[Line], language: str = "en", seed: int = 1) -> list[Line]:
    rng = random.Random(seed)
    words = vocabulary(language, random.Random(0))
    labels = sorted({line.speaker for line in lines})
    shuffled = labels[:]
    rng.shuffle(shuffled)
    rename = {a: f"H{labels.index(b)}" for a, b in zip(labels, shuffled, strict=True)}
    out = []
    for line in lines:
        tokens = [
            rng.choice(words) if rng.random() < 0.12 else w
            for w in line.words
            if rng.random() >= 0.05
        ]
        start = max(0.0, round(line.start + rng.uniform(-0.3, 0.3), 2))
        end = max(start, round(line.end + rng.uniform(-0.3, 0.3), 2))
        out.append(Line(rename[line.speaker], start, end, tokens))
    return out


def stm(lines: list[Line]) -> str:
    return "".join(
        f"long 1 {line.speaker} {line.start:.2f} {line.end:.2f} {' '.join(line.words)}\n"
        for line in lines
    )


def write_session(
    out: Path, minutes: float, speakers: int, language: str = "en"
) -> tuple[Path, Path, int]:
    """``out/ref.stm`` and ``out/hyp.stm``, and the reference token count."""
    out.mkdir(parents=True, exist_ok=True)
    ref = reference(minutes, speakers, language)
    (out / "ref.stm").write_text(stm(ref), encoding="utf-8")
    (out / "hyp.stm").write_text(stm(hypothesis(ref, language)), encoding="utf-8")
    return out / "ref.stm", out / "hyp.stm", sum(len(line.words) for line in ref)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=160)
    parser.add_argument("--speakers", type=int, default=14)
    parser.add_argument("--language", choices=("en", "zh"), default="en")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    ref, hyp, tokens = write_session(args.out, args.minutes, args.speakers, args.language)
    print(f"{ref} and {hyp}: {tokens} reference tokens")


if __name__ == "__main__":
    main()
