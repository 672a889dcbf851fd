"""Outputs that stop before their structure closes: the paper's structurally incomplete output
(a decoder cut off at its token limit). Every reader that can tell raises :data:`CUT_OFF`;
evaluate excludes such a unit as ``incomplete`` and never scores the part that survived.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from msbench.errors import InputError

#: The problem text of an output that stops before its structure closes.
CUT_OFF = "incomplete: the output stops before its structure closes (cut off at a token limit?)"

#: How a complete last line ends when a file has no final line end: a sentence's end, a
#: closing quote or bracket, or a closing tag (``</v>``: the voice span closed; an opening
#: ``<v Speaker B>`` with nothing after it is a cut).
SENTENCE_END = re.compile(r"(?:[.!?。！？…\"'”’)\]」』]|</[A-Za-z.]+>)\s*$")


def json_problem(path: str | Path, text: str, error: json.JSONDecodeError) -> InputError:
    """A JSON error: ``incomplete`` when it is at the end of the text (an unclosed document,
    or a string that runs to the end), else invalid JSON at its line."""
    if error.pos >= len(text.rstrip()) - 1 or error.msg.startswith("Unterminated string"):
        return InputError(path, f"{CUT_OFF}: {error.msg} at the end", where=f"line {error.lineno}")
    return InputError(path, f"invalid JSON: {error.msg}", where=f"line {error.lineno}")


def unterminated_end(text: str, cue_parts: bool = False) -> str | None:
    """Why a text without a final line end looks cut off (None: it is complete or ends with one).

    Read from the content, not the missing line end alone: the last line is a cue's number or
    times (``cue_parts``, subtitles), or text that stops without a sentence's end (mid-word, as
    a decoder at its token limit stops). A last line that ends a sentence is complete.

    >>> unterminated_end("1\\n00:00:01,000 --> 00:00:02,000\\nA: hello."), unterminated_end("A: hel")
    (None, 'the last line stops mid-sentence without a final line end')
    """
    if not text.strip() or text.endswith("\n"):
        return None
    last = text.rstrip().rsplit("\n", 1)[-1].strip()
    if cue_parts and ("-->" in last or last.isdigit()):
        return "the file ends inside a cue's number or times"
    if not SENTENCE_END.search(last):
        return "the last line stops mid-sentence without a final line end"
    return None
