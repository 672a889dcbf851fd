"""Progress of long steps: items and audio hours done, x real time, ETA, at a bounded rate.

Lines go to standard error (the step's log; the SLURM job log) and to standard
output (the terminal when run locally: the rules redirect only standard error).
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field


def clock(seconds: float) -> str:
    """``3725`` -> ``1:02:05``.

    >>> clock(3725.4), clock(59)
    ('1:02:05', '0:00:59')
    """
    whole = int(round(seconds))
    return f"{whole // 3600}:{whole % 3600 // 60:02d}:{whole % 60:02d}"


@dataclass
class Progress:
    """Call :meth:`done` after each item with its audio duration; prints every ``every`` s."""

    label: str
    total_items: int
    total_audio_seconds: float
    every: float = 10.0
    items: int = 0
    audio_seconds: float = 0.0
    started: float = field(default_factory=time.perf_counter)
    last_print: float = -1e9

    def line(self) -> str:
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        speed = self.audio_seconds / elapsed
        left = (self.total_audio_seconds - self.audio_seconds) / speed if speed > 0 else 0.0
        return (
            f"[{self.label}] {self.items}/{self.total_items} recordings, "
            f"{self.audio_seconds / 3600:.2f}/{self.total_audio_seconds / 3600:.2f} h audio, "
            f"{speed:.0f}x real time, elapsed {clock(elapsed)}, ETA {clock(left)}"
        )

    def done(self, audio_seconds: float) -> None:
        self.items += 1
        self.audio_seconds += audio_seconds
        now = time.perf_counter()
        if now - self.last_print >= self.every or self.items == self.total_items:
            self.last_print = now
            text = self.line()
            print(text, file=sys.stderr, flush=True)
            print(text, flush=True)
