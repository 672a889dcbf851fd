"""Strings that test text conventions: seeded random mixtures of the scripts, digits,
punctuation and invisible characters that transcripts carry, and real reference lines."""

from __future__ import annotations

import random
import re

from tests.helpers.paths import SHARED_DATA, require_shared

HAN = "我们今天下午开会讨论一下这个问题你好世界的是不了人有在他这中大来上个国到说们为子和你地"
LATIN = ["Hello", "OK", "okay", "e-mail", "we're", "we’re", "GPU", "iPhone", "ＡＢＣ", "café",
         "cafe\u0301", "naïve", "A", "x", "Zoom"]  # fmt: skip
NUMBERS = ["3", "12", "200", "101", "2026", "10086", "1000", "3.14", "0.5", "５０", "１２",
           "100000", "12345678901", "007", "1,000", "12-13", "50%", "1.5", "99.99", "0"]  # fmt: skip
PUNCTUATION = list(
    '，。？！：；、“”‘’（）【】《》「」『』—–…～·•＠!"#$%&()*+,-./:;<=>?@[]^_`{|}~●■※'
)
INVISIBLE = ["\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2060", "\u2063", "\ufeff",
             "\u00ad"]  # fmt: skip
SPACES = [" ", " ", "  ", "\u3000", "\t"]
OTHER = ["カタカナ", "한국어", "สวัสดี", "😀", "½", "Ⅻ"]


def seeded_strings(count: int, seed: int = 0) -> list[str]:
    """``count`` seeded strings of 1 to 12 pieces: Han runs, Latin words, numbers (decimals,
    full-width, separators), punctuation, invisible characters, spaces, other scripts."""
    rng = random.Random(seed)
    kinds = (
        (6, lambda: "".join(rng.choice(HAN) for _ in range(rng.randint(1, 6)))),
        (3, lambda: rng.choice(LATIN)),
        (3, lambda: rng.choice(NUMBERS)),
        (3, lambda: rng.choice(PUNCTUATION)),
        (1, lambda: rng.choice(INVISIBLE)),
        (3, lambda: rng.choice(SPACES)),
        (1, lambda: rng.choice(OTHER)),
    )
    weights = [w for w, _ in kinds]
    out = []
    for _ in range(count):
        pieces = rng.choices([make for _, make in kinds], weights, k=rng.randint(1, 12))
        out.append("".join(make() for make in pieces))
    return out


def real_reference_lines() -> list[str]:
    """Every non-empty interval text of the MS-Bench release's AISHELL-4 TextGrid."""
    folder = require_shared(SHARED_DATA / "msbench-release" / "textgrids")
    lines = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and "aishell4" in path.name.lower():
            text = _decoded(path.read_bytes())
            lines += [t.strip() for t in re.findall(r'text = "([^"]*)"', text) if t.strip()]
    return lines


def _decoded(data: bytes) -> str:
    for encoding in ("utf-8", "utf-16"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    return data.decode("utf-8", errors="replace")
