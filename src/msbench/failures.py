"""What a failed workflow run tells the terminal: each failing step's own last lines.

The rules send a stage's messages to its log (``results/logs/...``), where the
terminal never shows them, locally or on SLURM. The Snakefile's ``onerror``
handler calls :func:`failure_report`: every log written during this run that
holds a failure (an ``msbench ... error:`` or ``infeasible:`` line, or a
traceback) is named, with its last lines.
"""

from __future__ import annotations

from pathlib import Path

FAILURE_MARKS = (": error:", ": infeasible:", "Traceback (most recent call last)")
TAIL_LINES = 12


def failed_logs(log_dir: str | Path, since: float) -> list[Path]:
    """Logs under ``log_dir`` modified at or after ``since`` (epoch s) that hold a failure."""
    found = []
    for path in sorted(Path(log_dir).rglob("*.log")):
        if path.stat().st_mtime + 1 < since:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if any(mark in text for mark in FAILURE_MARKS):
            found.append(path)
    return found


def failure_report(log_dir: str | Path, since: float) -> str:
    """The last lines of every failing step's log, each under its path; '' when none."""
    parts = []
    for path in failed_logs(log_dir, since):
        lines = path.read_text(encoding="utf-8", errors="replace").rstrip().splitlines()
        tail = "\n".join(f"  {line}" for line in lines[-TAIL_LINES:])
        parts.append(f"[msbench] {path} (last lines):\n{tail}")
    return "\n".join(parts)


def sources_report(summary: str | Path, since: float) -> str:
    """Each source that gave no recording (``run_summary.json``'s ``failed_sources``, written in
    this run), one line each; '' when none."""
    import json

    path = Path(summary)
    if not path.exists() or path.stat().st_mtime + 1 < since:
        return ""
    failed = json.loads(path.read_text(encoding="utf-8")).get("failed_sources") or {}
    return "".join(f"[msbench] source {name!r}: {reason}\n" for name, reason in failed.items())
