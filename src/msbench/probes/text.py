"""Text rules of the probes: normalisation, content words, length classes, quoting.

* **Normalised** text: lower case, apostrophes kept, every other non-letter and
  non-digit a space, spaces collapsed. Two options are distinct when their
  normalised texts differ.
* **Content words**: normalised tokens of three or more letters not in
  :data:`STOPWORDS` (a reference snippet may share none with a quoted text).
* **Length class** of a line, by its word count: ``short`` (1 to 4), ``medium``
  (5 to 12), ``long`` (13 or more); distractor lines come from the answer's class
  first.
* **Shown** text (what a question quotes and an option offers) is what the
  annotation says, minus only what it marks as not a word: AMI's spelled-letter
  marks become the letters (``N_ E_ Z_`` -> ``N E Z``, ``H_T_M_L_`` ->
  ``HTML``); a word the annotation marks as cut off (a trailing or leading
  ``-``: ``deskt-``) and tags (``<sil>``, ``[noise]``, ``{laugh}``) are left out;
  a word the recording writes capitalised elsewhere, not first in its line, is
  shown capitalised (``steve's`` -> ``Steve's``). A word that merely begins the
  next one stays (``he heard``, ``an answer``, ``deskt desktop``): it was said.
* **Restarts**: two lines whose first words agree on at least 3 words and 60 %
  of the shorter (``is there much more in it than he d`` / ``... than he said
  yesterday``) are one attempt said twice: a text-only reader pairs them, so
  neither is quoted or offered.
* **Near-identical** options (the same normalised text, a restart, or word
  sets with Jaccard similarity 0.8 or more) are never offered together.
"""

from __future__ import annotations

import functools
import re

from msbench.scoring.tokenizer import SPLIT_SCRIPTS

STOPWORDS = frozenset(
    """the and but for nor yet so you your yours she her hers his him they them their
    theirs our ours its was were are is be been being have has had having do does did
    doing done not no yes yeah yep okay oh um uh mm hmm mhm hm right well just like that this
    these those there here then than what which who whom whose when where why how all any some
    each every with without from into onto over under about above below again once also very too
    can could would should will shall may might must one two three gonna wanna kind sort thing
    things really actually got get gets going goes went come comes came say says said see know
    think mean want let yes yeah sure maybe because though through out off anything something
    nothing everything anyone someone everybody somebody more most much many lot lots bit""".split()
)


@functools.lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """Lower case, punctuation to spaces, spaces collapsed; a script written without spaces
    (Han, kana, Hangul, Thai) one token per character, as the scoring tokenizer splits it.
    (Cached: the text-only readers ask for the same lines many times while items are made.)

    >>> normalise("  Okay, well -- I THINK we're ready!  ")
    "okay well i think we're ready"
    >>> normalise("我们今天开会。OK")
    '我 们 今 天 开 会 ok'
    """
    spaced = re.sub(r"[^\w']+", " ", text.lower()).replace("_", " ")
    return " ".join(SPLIT_SCRIPTS.sub(r" \g<0> ", spaced).split())


def content_words(text: str) -> set[str]:
    """Normalised tokens of 3+ letters, not stopwords, not contractions, not numbers; in a
    script written without spaces, each pair of adjacent characters (a word's proxy).

    A contraction (``he's``, ``we're``) is a function word: never asked about.

    >>> sorted(content_words("Okay well I think we're ready to begin, he's 42"))
    ['begin', 'ready']
    >>> sorted(content_words("开会吧 ok"))
    ['会吧', '开会']
    """
    tokens = normalise(text).split()
    words = {
        w for w in tokens if len(w) >= 3 and w not in STOPWORDS and "'" not in w and w.isalpha()
    }
    pairs = {
        a + b
        for a, b in zip(tokens, tokens[1:], strict=False)
        if SPLIT_SCRIPTS.fullmatch(a) and SPLIT_SCRIPTS.fullmatch(b)
    }
    return words | pairs


_SPELLED = re.compile(r"\b((?:[A-Za-z]_)+)(?=\s|$)")
#: what an annotation marks as not (wholly) said: a cut-off word (``deskt-``, ``-top``), a tag
_NOT_SAID = re.compile(r"\w[\w']*-|-\w[\w']*|<[^>]*>|\[[^\]]*\]|\{[^}]*\}")


def shown_text(text: str, capitals: dict[str, str] | None = None) -> str:
    """The text as a question or option shows it (see the module docstring).

    >>> shown_text("N_ E_ Z_ Ebenezer uses H_T_M_L_ on the deskt- desktop with steve's help", {"steve's": "Steve's"})
    "N E Z Ebenezer uses HTML on the desktop with Steve's help"
    >>> shown_text("he heard a strange noise on one side <sil> of the [noise] building")
    'he heard a strange noise on one side of the building'
    """
    text = _SPELLED.sub(lambda m: m.group(1).replace("_", "").upper(), text)
    kept = [w for w in text.split() if not _NOT_SAID.fullmatch(w)]
    if capitals:
        kept = [capitals.get(w.lower(), w) if k else w for k, w in enumerate(kept)]
    return " ".join(kept)


def capitalised(texts: list[str]) -> dict[str, str]:
    """Words some line writes capitalised, not first in it: lower case -> that spelling.

    >>> capitalised(["then Steve said no", "Okay fine"])
    {'steve': 'Steve'}
    """
    found: dict[str, str] = {}
    for text in texts:
        for word in text.split()[1:]:
            if word[:1].isupper() and word[1:2].islower() and word.lower() != "i":
                found.setdefault(word.lower(), word)
    return found


def is_restart(a: str, b: str) -> bool:
    """One attempt said twice: the first words agree on 3+ words and 60 % of the shorter.

    >>> is_restart("Is there much more in it than he d", "is there much more in it than he said yesterday")
    True
    >>> is_restart("we could go", "we should go now")
    False
    """
    x, y = normalise(a).split(), normalise(b).split()
    common = 0
    for u, v in zip(x, y, strict=False):
        if u != v:
            break
        common += 1
    return common >= 3 and common >= 0.6 * min(len(x), len(y))


def near_identical(a: str, b: str) -> bool:
    """The same normalised text, a restart, or word sets at Jaccard 0.8 or more.

    >>> near_identical("Yes, we can do it", "yes we can do it!"), near_identical("a b c d e", "x b c d f")
    (True, False)
    """
    x, y = set(normalise(a).split()), set(normalise(b).split())
    if normalise(a) == normalise(b) or is_restart(a, b):
        return True
    return bool(x | y) and len(x & y) / len(x | y) >= 0.8


def length_class(text: str) -> str:
    """short (1-4 words), medium (5-12), long (13+).

    >>> [length_class(t) for t in ("yes please", "we could do it that way then", " ".join("w" * 14))]
    ['short', 'medium', 'long']
    """
    count = len(normalise(text).split())
    return "short" if count <= 4 else ("medium" if count <= 12 else "long")


def quote(text: str, limit: int = 16) -> str:
    """A line as quoted in a question: its first ``limit`` words, in double quotes.

    >>> quote("a b c", 2)
    '"a b ..."'
    """
    words = text.split()
    shown = " ".join(words[:limit]) + (" ..." if len(words) > limit else "")
    return f'"{shown}"'


def clock(seconds: float) -> str:
    """Clip-relative time as an option shows it.

    >>> clock(3.04), clock(75.5)
    ('00:03.0', '01:15.5')
    """
    tenths = int(round(seconds * 10))
    return f"{tenths // 600:02d}:{tenths % 600 // 10:02d}.{tenths % 10}"
