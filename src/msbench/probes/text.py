"""Text rules of the probes: normalisation, content words, length classes, quoting.

* **Normalised** text: lower case, apostrophes kept, every other non-letter and
  non-digit a space, spaces collapsed. Two options are distinct when their
  normalised texts differ.
* **Content words**: normalised tokens of three or more letters not in
  :data:`STOPWORDS` (a reference snippet may share none with a quoted text).
* **Length class** of a line, by its word count: ``short`` (1 to 4), ``medium``
  (5 to 12), ``long`` (13 or more); distractor lines come from the answer's class
  first.
"""

from __future__ import annotations

import re

STOPWORDS = frozenset(
    """the and but for nor yet so you your yours she her hers his him they them their
    theirs our ours its it's was were are is be been being have has had having do does did
    doing done not no yes yeah okay oh um uh mm hmm right well just like that this these those
    there here then than what which who whom whose when where why how all any some each every
    with without from into onto over under about above below again once also very too can could
    would should will shall may might must one two i'm you're we're they're i've don't can't
    won't didn't isn't that's there's gonna wanna kind sort thing things really actually""".split()
)


def normalise(text: str) -> str:
    """Lower case, punctuation to spaces, spaces collapsed.

    >>> normalise("  Okay, well -- I THINK we're ready!  ")
    "okay well i think we're ready"
    """
    return " ".join(re.sub(r"[^\w']+", " ", text.lower()).replace("_", " ").split())


def content_words(text: str) -> set[str]:
    """Normalised tokens of 3+ letters, not stopwords.

    >>> sorted(content_words("Okay well I think we're ready to begin"))
    ['begin', 'ready', 'think']
    """
    return {w for w in normalise(text).split() if len(w) >= 3 and w not in STOPWORDS}


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
