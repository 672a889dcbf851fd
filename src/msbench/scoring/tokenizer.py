"""One versioned tokenizer for references and hypotheses: ``mixed-v2`` (the default),
``mixed-v1`` (msbench before 0.3), ``aslp`` (the benchmark authors' convention) or
``whitespace``. Every score names its tokenizer and version.

``mixed-v2`` is ``mixed-v1`` with two more rules, so that formatting choices are not charged as
errors: after NFKC, **invisible and format characters** (Unicode category Cf: zero-width spaces
and joiners, the BOM, directional marks, the soft hyphen) are removed; after lower-casing,
**numbers** are written one way by the language around them (:mod:`msbench.scoring.numbers`:
digits in Chinese text become Chinese numerals by value, ``我们下午3点`` -> 我们下午三点;
spelled English numbers become digits, ``fifteen`` -> 15). Each side's rewritten numbers and
removed characters are counted, and ``msbench score`` notes them.

``aslp`` gives the tokens of ASLP-lab's ``normalize_text(text).split()`` (the SmartGlasses
Challenge's scorer; :mod:`msbench.scoring.aslp`): no case folding, its own punctuation list,
every digit run to Chinese numerals by value in any language.

``mixed-v1``, in this order:

1. Unicode NFKC (full-width letters and digits become half-width: ``ＡＢ１２`` -> ``AB12``);
2. markup removed whole: ``<...>`` tags (``<sil>``, ``<%>``, ``<$>``, ``<#>``, ``<->``,
   ``<pause>``), ``[...]`` events (``[noise]``, ``[unintelligible]``), ``&...&`` filler
   marks (``&嗯&``), before punctuation is removed, so a tag next to punctuation goes too;
3. lower-casing (``str.casefold``);
4. Unicode punctuation (categories ``P*``) becomes a space, except an apostrophe
   between two letters (``we're`` stays one word; ``’`` counts as ``'``);
5. Han, kana, Hangul and Thai characters become one token each, while Latin words
   and digit runs stay whole: Chinese is scored by character and English by word
   in one stream, as sclite's ``-c NOASCII`` does. Thai is split by code point,
   its combining vowel and tone marks included (``สวัสดี`` is 6 tokens): the
   convention of the MLC-SLM challenge's scorer (its baseline's
   ``add_space_between_chars`` splits U+0E00..U+0E7F one by one), which
   scored MS-Bench's Thai source; Japanese kana and kanji alike by character;
   Portuguese, Spanish and Italian by word (accents kept: ``olá`` is not ``ola``);
6. optionally (``traditional_to_simplified``), traditional Chinese is mapped to
   simplified with OpenCC's ``t2s`` before step 5.

``whitespace`` leaves the text exactly as given and splits on whitespace
(meeteval's own behaviour, for parity checks).

>>> tokenize("Ｏｋａｙ, <sil> we're ready［noise］! 我们今天讨论 &嗯& 一下。", "mixed-v1")
['okay', "we're", 'ready', '我', '们', '今', '天', '讨', '论', '一', '下']
>>> tokenize("カタカナ and 123", "mixed-v1")
['カ', 'タ', 'カ', 'ナ', 'and', '123']
>>> tokenize("สวัสดี olá, Tudo bem?", "mixed-v1")
['ส', 'ว', 'ั', 'ส', 'ด', 'ี', 'olá', 'tudo', 'bem']
>>> tokenize("你好\u200b世界，我们下午3点开会") == tokenize("你好世界，我们下午三点开会")
True
>>> tokenize("Fifteen people", "mixed-v2"), tokenize("你好\u200b世界", "mixed-v1")
(['15', 'people'], ['你', '好', '\u200b', '世', '界'])
"""

from __future__ import annotations

import functools
import re
import unicodedata
from functools import cache
from typing import Any

TOKENIZERS = ("mixed-v2", "mixed-v1", "aslp", "whitespace")
#: What scoring uses unless told otherwise (config ``scoring.tokenizer``, ``--tokenizer``).
DEFAULT_TOKENIZER = "mixed-v2"
VERSION = {"mixed-v2": "2", "mixed-v1": "1", "aslp": "2b06d65", "whitespace": "1"}
#: What each version is: ``aslp``'s is the lab's file's commit that its tokens are held to.
SOURCE = {"aslp": "ASLP-lab/Smart-Glass-Challenge text_normalization.py normalize_text"}

MARKUP = re.compile(r"<[^<>]*>|\[[^\[\]]*\]|&[^&\s]*&")
APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)")
#: Scripts written without spaces between words: one token per character.
SPLIT_SCRIPTS = re.compile(
    "["
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002ffff"  # Han
    "\u3040-\u30ff\u31f0-\u31ff"  # kana
    "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"  # Hangul
    "\u0e00-\u0e7f"  # Thai
    "]"
)
KEPT_APOSTROPHE = "\u0001"


class _PunctuationToSpace(dict[int, int]):
    """``str.translate``'s table: a Unicode punctuation character (category P*) to a space,
    every other character to itself, each character looked up once."""

    def __missing__(self, code: int) -> int:
        self[code] = value = 32 if unicodedata.category(chr(code)).startswith("P") else code
        return value


_PUNCTUATION_TO_SPACE = _PunctuationToSpace()


def _without_punctuation(text: str) -> str:
    """Punctuation (Unicode category P*) to spaces, an apostrophe inside a word kept.

    >>> _without_punctuation("don't, «stop»!")
    "don't   stop  "
    """
    text = APOSTROPHE.sub(KEPT_APOSTROPHE, text).translate(_PUNCTUATION_TO_SPACE)
    return text.replace(KEPT_APOSTROPHE, "'")


@cache
def _t2s() -> Any:
    import opencc

    return opencc.OpenCC("t2s")


def tokenize(
    text: str | None, name: str = DEFAULT_TOKENIZER, traditional_to_simplified: bool = False
) -> list[str]:
    """The tokens of ``text`` under tokenizer ``name`` (see the module docstring)."""
    return list(counted(text or "", name, traditional_to_simplified)[0])


#: What a tokenizer rewrites, counted per text: ``invisible`` characters removed, ``numbers``
#: written the other way.
CHANGES = ("invisible", "numbers")


@functools.lru_cache(maxsize=1 << 16)
def counted(
    text: str, name: str = DEFAULT_TOKENIZER, traditional_to_simplified: bool = False
) -> tuple[tuple[str, ...], tuple[int, int]]:
    """``(tokens, (invisible characters removed, numbers rewritten))`` of ``text`` (cached: a
    unit's segments are tokenized by scoring, the runaway check and the word view alike)."""
    if not text:
        return (), (0, 0)
    if name == "whitespace":
        return tuple(text.split()), (0, 0)
    if name == "aslp":
        from msbench.scoring.aslp import aslp_tokens

        tokens, changes = aslp_tokens(text)
        return tuple(tokens), (changes["invisible"], changes["numbers"])
    if name not in ("mixed-v1", "mixed-v2"):
        raise ValueError(f"unknown tokenizer {name!r}; use one of {', '.join(TOKENIZERS)}")
    text = unicodedata.normalize("NFKC", text)
    invisible = numbers = 0
    if name == "mixed-v2":
        kept = "".join(c for c in text if unicodedata.category(c) != "Cf")
        invisible, text = len(text) - len(kept), kept
    text = MARKUP.sub(" ", text).casefold()
    if name == "mixed-v2":
        from msbench.scoring.numbers import normalise_numbers

        text, numbers = normalise_numbers(text)
    text = _without_punctuation(text)
    if traditional_to_simplified:
        text = _t2s().convert(text)
    return tuple(SPLIT_SCRIPTS.sub(lambda m: f" {m.group(0)} ", text).split()), (invisible, numbers)


def describe(name: str, traditional_to_simplified: bool = False) -> dict[str, object]:
    """The ``tokenizer`` entry of a score: name, version, options."""
    if name not in VERSION:
        raise ValueError(f"unknown tokenizer {name!r}; use one of {', '.join(TOKENIZERS)}")
    return {
        "name": name,
        "version": VERSION[name],
        "traditional_to_simplified": traditional_to_simplified,
    }


def changes_note(side: str, segments_text: list[str | None], name: str) -> str | None:
    """How many characters and numbers ``name`` rewrote on one side, as a note; None when none.

    >>> changes_note("hypothesis", ["我们下午3点开会", "ok\u200b"], "mixed-v2")
    'mixed-v2 rewrote the hypothesis: 1 number written the other way (msbench.scoring.numbers), 1 invisible character removed'
    """
    invisible = numbers = 0
    for text in segments_text:
        _, (i, n) = counted(text or "", name)
        invisible, numbers = invisible + i, numbers + n
    if not invisible and not numbers:
        return None
    parts = []
    if numbers:
        parts.append(
            f"{numbers} number{'s' * (numbers != 1)} written the other way "
            "(msbench.scoring.numbers)"
        )
    if invisible:
        parts.append(f"{invisible} invisible character{'s' * (invisible != 1)} removed")
    return f"{name} rewrote the {side}: {', '.join(parts)}"
