"""Reading a model's reply to a probe: the letter it chose, by HEAR's rules, in HEAR's order.

HEAR's scorer (``hear/eval_hear.py``, ``extract_letter``) tries, first match wins:

1. ``"Answer": "B"`` (quotes optional, any case, the letter a whole word);
2. ``"Answer": 1`` (a digit 0 to 4: 0 is A);
3. the first ``{...}`` object that parses as JSON, its key ``answer`` (any case)
   holding a letter or an integer 0 to 4;
4. a parenthesised capital letter, ``(B)``;
5. with the options known: the value after ``Answer:`` matched to an option's
   text, then the whole reply matched to an option's text (the same text once
   spaces are removed, or one option only contained in it or containing it, or
   the same set of numbers, as ``from 00:02.1 to 00:13.2`` and ``[2.1s-13.2s]``);
6. the first capital letter A to E standing alone (``The answer is B``, ``Voice B``).

A reply that is an object (HEAR's results may hold one) is read by its
``prediction``, ``Answer`` or ``answer`` value. :func:`letter` implements these
rules and :func:`rule_of` names the one that matched, so that ``msbench
probes-score`` accepts every reply HEAR accepts and scores it the same way.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

LETTERS = ("A", "B", "C", "D", "E")
_JSON_LETTER = re.compile(r"[\"']?\s*Answer\s*[\"']?\s*:\s*[\"']?\s*([A-E])\b", re.IGNORECASE)
_JSON_DIGIT = re.compile(r"[\"']?\s*Answer\s*[\"']?\s*:\s*([0-4])\b")
_PARENTHESISED = re.compile(r"\(([A-E])\)")
_ALONE = re.compile(r"\b([A-E])\b")
_ANSWER_VALUE = re.compile(r"[\"']?Answer[\"']?\s*:\s*\"?([^\"}\n,]+?)\"?\s*[,}\n]", re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _squeezed(text: str) -> str:
    return re.sub(r"\s+", "", str(text).strip().strip("\"'").lower())


def option_of(candidate: str, options: Sequence[str]) -> str:
    """The letter of the option a free-form text names, or "" (rule 5's matching).

    >>> option_of("from 2.1 s to 13.2 s", ["from 0.5 s to 1.0 s", "[2.1s - 13.2s]"])
    'B'
    >>> option_of("Voice B", ["Voice A", "Voice B"])
    'B'
    """
    if not candidate or not options:
        return ""
    wanted, texts = _squeezed(candidate), [_squeezed(o) for o in options]
    for k, text in enumerate(texts):
        if wanted and wanted == text:
            return LETTERS[k]
    for found in (
        [k for k, t in enumerate(texts) if t and t in wanted],
        [k for k, t in enumerate(texts) if wanted and wanted in t],
    ):
        if len(found) == 1:
            return LETTERS[found[0]]
    numbers = sorted(float(x) for x in _NUMBER.findall(candidate))
    if len(numbers) >= 2:
        found = [
            k
            for k, o in enumerate(options)
            if (n := sorted(float(x) for x in _NUMBER.findall(o))) and n == numbers
        ]
        if len(found) == 1:
            return LETTERS[found[0]]
    return ""


def rule_of(reply: str, options: Sequence[str] | None = None) -> tuple[str, str]:
    """``(letter or "", the rule that matched or "unparsed")`` of one reply text.

    >>> [rule_of(r)[0] for r in ('{"Answer": "B"}', '{"Answer": 2}', "(D)", "The answer is E", "Voice A")]
    ['B', 'C', 'D', 'E', 'A']
    >>> rule_of("I am not sure.")
    ('', 'unparsed')
    """
    text = reply.strip() if reply else ""
    if not text:
        return "", "unparsed"
    if found := _JSON_LETTER.search(text):
        return found.group(1).upper(), "answer field letter"
    if found := _JSON_DIGIT.search(text):
        return LETTERS[int(found.group(1))], "answer field digit"
    if found := re.search(r"\{[^{}]*\}", text):
        try:
            value = next(
                (v for k, v in json.loads(found.group(0)).items() if k.lower() == "answer"), None
            )
        except (ValueError, AttributeError):
            value = None
        if isinstance(value, str) and value.strip().upper() in LETTERS:
            return value.strip().upper(), "JSON object"
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 4:
            return LETTERS[value], "JSON object"
    if found := _PARENTHESISED.search(text):
        return found.group(1), "parenthesised letter"
    if options:
        if (found := _ANSWER_VALUE.search(text)) and (letter := option_of(found.group(1), options)):
            return letter, "answer field text"
        if letter := option_of(text, options):
            return letter, "option text"
    if found := _ALONE.search(text):
        return found.group(1), "letter alone"
    return "", "unparsed"


def reply_text(reply: Any) -> str:
    """A reply as text; an object is read by its prediction, Answer or answer value (HEAR's)."""
    if isinstance(reply, dict):
        value = reply.get("prediction") or reply.get("Answer") or reply.get("answer") or ""
        return f'{{"Answer": "{value}"}}' if value else json.dumps(reply, ensure_ascii=False)
    return "" if reply is None else str(reply)


def letter(reply: Any, options: Sequence[str] | None = None) -> str:
    """The chosen letter of a reply (text or object), or "" when none can be read."""
    return rule_of(reply_text(reply), options)[0]
