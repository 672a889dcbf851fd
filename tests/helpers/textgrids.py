"""Praat TextGrid text, long format, written from tiers: one writer for every test that needs one."""

from __future__ import annotations

from collections.abc import Sequence

#: A tier: its name and its intervals ``(start, end, text)``; gaps become empty intervals.
Tier = tuple[str, Sequence[tuple[float, float, str]]]


def long_textgrid(tiers: Sequence[Tier], xmax: float) -> str:
    """The text Praat writes for these interval tiers (times as their shortest decimals)."""
    lines = [
        'File type = "ooTextFile"', 'Object class = "TextGrid"', "", "xmin = 0",
        f"xmax = {xmax!r}", "tiers? <exists>", f"size = {len(tiers)}", "item []:",
    ]  # fmt: skip
    for number, (name, entries) in enumerate(tiers, start=1):
        intervals, cursor = [], 0.0
        for start, end, text in sorted(entries):
            if start > cursor:
                intervals.append((cursor, start, ""))
            intervals.append((start, end, text))
            cursor = end
        if cursor < xmax:
            intervals.append((cursor, xmax, ""))
        lines += [
            f"    item [{number}]:", '        class = "IntervalTier"', f'        name = "{name}"',
            "        xmin = 0", f"        xmax = {xmax!r}", f"        intervals: size = {len(intervals)}",
        ]  # fmt: skip
        for k, (a, b, text) in enumerate(intervals, start=1):
            quoted = text.replace('"', '""')
            lines += [
                f"        intervals [{k}]:", f"            xmin = {float(a)!r}",
                f"            xmax = {float(b)!r}", f'            text = "{quoted}"',
            ]  # fmt: skip
    return "\n".join(lines) + "\n"
