"""md-eval-22.pl itself (NIST, as dscore ships and calls it), run on RTTM and UEM text.

``run_md_eval`` writes the sessions' reference, system and UEM files, calls
``perl md-eval-22.pl -af -c COLLAR -r REF -s SYS -u UEM`` (dscore's command)
once per session and reads its report: ``SCORED SPEAKER TIME``, ``MISSED
SPEAKER TIME``, ``FALARM SPEAKER TIME`` and ``SPEAKER ERROR TIME`` (seconds,
printed to the microsecond). md-eval reports nothing for a file without
reference speech.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

MD_EVAL = (
    Path(__file__).resolve().parents[1] / "fixtures" / "reference" / "dscore" / "md-eval-22.pl"
)

#: (session, speaker, start, duration) as RTTM text
Turns = list[tuple[str, str, str, str]]
FIELDS = {
    "SCORED SPEAKER TIME": "scored",
    "MISSED SPEAKER TIME": "missed",
    "FALARM SPEAKER TIME": "false_alarm",
    "SPEAKER ERROR TIME": "confusion",
}


def rttm(turns: Turns) -> str:
    return "".join(
        f"SPEAKER {session} 1 {start} {duration} <NA> <NA> {speaker} <NA> <NA>\n"
        for session, speaker, start, duration in turns
    )


def run_md_eval(
    reference: Turns,
    system: Turns,
    uem: list[tuple[str, str, str]],
    collar: float,
    folder: Path,
    maps: dict[str, dict[str, str]] | None = None,
) -> dict[str, dict[str, float]]:
    """Each session's speaker times as md-eval reports them, one md-eval run per session.

    md-eval stops with "Illegal division by zero" on a file whose scored
    speaker time is 0 (dscore then reads what it printed); such a session is
    reported with the zeros md-eval printed before it stopped. ``maps``: filled with each
    session's speaker mapping as md-eval chose it (its ``-m`` report).
    """
    out: dict[str, dict[str, float]] = {}
    for session in sorted({s for s, _, _ in uem}):
        paths = [folder / f"{session}.{kind}" for kind in ("ref.rttm", "sys.rttm", "uem")]
        paths[0].write_text(rttm([t for t in reference if t[0] == session]))
        paths[1].write_text(rttm([t for t in system if t[0] == session]))
        paths[2].write_text("".join(f"{s} 1 {a} {b}\n" for s, a, b in uem if s == session))
        done = subprocess.run(
            ["perl", str(MD_EVAL), "-af", "-m", "-c", str(collar), "-r", str(paths[0]),
             "-s", str(paths[1]), "-u", str(paths[2])],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode and "Illegal division by zero" not in done.stderr:
            raise RuntimeError(f"md-eval failed on {session}: {done.stderr[-500:]}")
        block = _first_block(done.stdout)
        if block:
            out[session] = block
        if maps is not None:
            maps[session] = dict(re.findall(r"^'(.+?)' => '(.+?)'$", done.stdout, flags=re.M))
    return out


def _first_block(report: str) -> dict[str, float]:
    """The first file's four speaker times of an md-eval report (empty if none printed)."""
    block: dict[str, float] = {}
    for line in report.splitlines():
        for label, key in FIELDS.items():
            match = re.match(rf"\s*{label} =\s*([-\d.]+) secs", line)
            if match and key not in block:
                block[key] = float(match.group(1))
    return block if len(block) == len(FIELDS) else {}
