"""One versioned tokenizer for references and hypotheses: ``mixed-v1`` (default) or ``whitespace``.

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

>>> tokenize("Ｏｋａｙ, <sil> we're ready［noise］! 我们今天讨论 &嗯& 一下。")
['okay', "we're", 'ready', '我', '们', '今', '天', '讨', '论', '一', '下']
>>> tokenize("カタカナ and 123", "mixed-v1")
['カ', 'タ', 'カ', 'ナ', 'and', '123']
>>> tokenize("สวัสดี olá, Tudo bem?")
['ส', 'ว', 'ั', 'ส', 'ด', 'ี', 'olá', 'tudo', 'bem']
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from typing import Any

TOKENIZERS = ("mixed-v1", "whitespace")
#: What scoring uses unless told otherwise (config ``scoring.tokenizer``, ``--tokenizer``).
DEFAULT_TOKENIZER = "mixed-v1"
VERSION = {"mixed-v1": "1", "whitespace": "1"}

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


def _without_punctuation(text: str) -> str:
    text = APOSTROPHE.sub(KEPT_APOSTROPHE, text)
    text = "".join(" " if unicodedata.category(c).startswith("P") else c for c in text)
    return text.replace(KEPT_APOSTROPHE, "'")


@cache
def _t2s() -> Any:
    import opencc

    return opencc.OpenCC("t2s")


def tokenize(
    text: str | None, name: str = "mixed-v1", traditional_to_simplified: bool = False
) -> list[str]:
    """The tokens of ``text`` under tokenizer ``name`` (see the module docstring)."""
    if not text:
        return []
    if name == "whitespace":
        return text.split()
    if name != "mixed-v1":
        raise ValueError(f"unknown tokenizer {name!r}; use one of {', '.join(TOKENIZERS)}")
    text = unicodedata.normalize("NFKC", text)
    text = MARKUP.sub(" ", text).casefold()
    text = _without_punctuation(text)
    if traditional_to_simplified:
        text = _t2s().convert(text)
    return SPLIT_SCRIPTS.sub(lambda m: f" {m.group(0)} ", text).split()


def describe(name: str, traditional_to_simplified: bool = False) -> dict[str, object]:
    """The ``tokenizer`` entry of a score: name, version, options."""
    return {
        "name": name,
        "version": VERSION[name],
        "traditional_to_simplified": traditional_to_simplified,
    }
