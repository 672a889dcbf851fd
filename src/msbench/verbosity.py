"""How much a command says on standard error: ``--quiet``, the default, ``--verbose``.

``--quiet``: nothing but errors (a command's notes stay in what it writes: ``msbench score``'s
JSON keeps ``notes``); the default: what was read, notes and warnings, and progress lines on a
terminal; ``--verbose``: progress lines wherever standard error goes (a log, a pipe), a line per
step of a long session included.
"""

from __future__ import annotations

import sys
from typing import TextIO

QUIET, NORMAL, VERBOSE = 0, 1, 2
_level = NORMAL


def set_level(level: int) -> None:
    global _level
    _level = level


def level() -> int:
    return _level


def progress_stream() -> TextIO | None:
    """Where progress lines go: standard error when verbose, or when it is a terminal and the
    command is not quiet; else nowhere (None)."""
    if _level >= VERBOSE or (_level == NORMAL and sys.stderr.isatty()):
        return sys.stderr
    return None
