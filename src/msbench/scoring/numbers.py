"""Numbers written the same way on both sides (the ``mixed-v2`` tokenizer): a digit string and
its spelled form become the same tokens, by the language around them.

**Chinese context** (the digits touch a Han character): Arabic digits become Chinese numerals
by value with cn2an (``cn2an.transform(text, "an2cn")``, MIT): ``3点`` -> 三点, ``百分之50``
-> 百分之五十, ``50%`` -> 百分之五十, ``第10000个`` -> 第一万个, ``3.14`` -> 三点一四,
``1000万`` -> 一千万, ``-3度`` -> 负三度; a year before 年 digit by digit (``2026年`` ->
二零二六年, how it is read and how AISHELL-4 and AliMeeting write it). msbench adds three rules
cn2an lacks: thousands separators go (``1,000元`` -> 一千元); a digit string with a leading
zero (``007``) or of 7 digits or more (a phone number, an id: ``13812345678``) is read digit
by digit; a hyphen between two numbers (a range, ``12-13``) separates them instead of making
the second negative. Five or six digits without a leading zero are read by value
(``10086`` -> 一万零八十六).

**Otherwise** (English and other scripts): spelled English numbers become digits with text2num
(``text_to_num.alpha2digit(text, "en", threshold=0)``, MIT): ``fifteen`` -> 15, ``one hundred
and one`` -> 101, ``twenty-five`` -> 25, ``two point five`` -> 2.5; ordinals too (``first`` ->
1st, also ``one second`` -> 1 2nd: the same on both sides, so never an error). A spoken year
(``twenty twenty six``) becomes ``20 26``, not ``2026``: say so where it matters.

Why these two libraries: cn2an reads every case of the issue that filed this convention as a
Chinese speaker does (the lab's own converter drops the 零 of ``10086`` and reads years by
value) and handles percent, dates, decimals and negatives in running text; text2num converts
spelled numbers in running English text (WeTextProcessing needs pynini, whisper-normalizer's
English normaliser rewrites far more than numbers, num2words goes the other way and would need
a number grammar to find the numbers first). Both are pure converters with no model and no
network; ``tests/unit/test_text_conventions.py`` pins every case named here.
"""

from __future__ import annotations

import re
import warnings

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: A run of Han characters, digits and the signs numbers carry, holding at least one digit.
CHINESE_RUN = re.compile(rf"[{HAN}0-9.%,\-]*[0-9][{HAN}0-9.%,\-]*")
THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
RANGE = re.compile(r"(?<=\d)-(?=\d)")
DIGIT_BY_DIGIT = re.compile(r"(?<![\d.])(?:0\d+|\d{7,})(?![\d.])")
YEAR_DIGITS = "零一二三四五六七八九"
SPELLED_EN = re.compile(
    r"\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
    r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|"
    r"seventy|eighty|ninety|hundred|thousand|million|billion|first|second|third|fourth|fifth|"
    r"sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|twentieth|thirtieth|hundredth)\b",
    re.IGNORECASE,
)


def _digit_by_digit(match: re.Match[str]) -> str:
    return "".join(YEAR_DIGITS[int(d)] for d in match.group(0))


def _chinese_run(match: re.Match[str]) -> str:
    import cn2an

    run = match.group(0)
    if not re.search(f"[{HAN}]", run):
        return run  # digits not touching a Han character: not Chinese context
    run = RANGE.sub(" ", THOUSANDS.sub("", run))
    run = DIGIT_BY_DIGIT.sub(_digit_by_digit, run)
    try:
        with warnings.catch_warnings():  # cn2an warns of forms it keeps as they are
            warnings.simplefilter("ignore")
            return " ".join(str(cn2an.transform(part, "an2cn")) for part in run.split(" "))
    except (ValueError, KeyError, IndexError):  # cn2an refuses a form: digits stay digits
        return run


def normalise_numbers(text: str) -> tuple[str, int]:
    """``text`` with its numbers as the module docstring says, and how many it rewrote.

    >>> normalise_numbers("我们下午3点开会")
    ('我们下午三点开会', 1)
    >>> normalise_numbers("打电话给10086，不是13812345678")[0]
    '打电话给一万零八十六，不是一三八一二三四五六七八'
    >>> normalise_numbers("I was fifteen in 2012, one of them")
    ('I was 15 in 2012, 1 of them', 2)
    """
    from text_to_num import alpha2digit

    chinese = 0

    def convert(match: re.Match[str]) -> str:
        nonlocal chinese
        found = _chinese_run(match)
        chinese += found != match.group(0)
        return found

    text = CHINESE_RUN.sub(convert, text)
    spelled = len(SPELLED_EN.findall(text))
    if spelled:
        text = alpha2digit(text, "en", threshold=0)
    return text, chinese + spelled
