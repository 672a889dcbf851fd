"""What ``msbench score`` says to a person: what each file was read as, one line per metric, and
every note as one warning line. The JSON (``--json``, or whenever standard output is not a
terminal) carries the same: ``read`` and ``notes``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from typing import Any

from msbench.metrics import COMPARED, METRICS, WER_COUNTS

#: The DER-family keys, the WER-family keys (``orcwer``: msbench score alone computes it) and
#: the diagnosis rates, from the one registry (msbench.metrics).
DER_METRICS = tuple(m.name for m in METRICS if m.family == "der")
WORD_METRICS = (*WER_COUNTS, "orcwer")
DIAGNOSIS_RATES = tuple(m.name for m in COMPARED if m.family == "diagnosis")


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.2f} %"


def score_table(scores: Mapping[str, Any]) -> str:
    """One line per metric: rate, errors / length, and its parts.

    >>> print(score_table({"der": {"error_rate": 0.1, "missed": 1.0, "false_alarm": 0.5,
    ...   "confusion": 0.5, "scored": 20.0, "collar": 0.25}, "cpwer": {"error_rate": 0.25,
    ...   "errors": 2, "length": 8, "substitutions": 1, "insertions": 0, "deletions": 1}}))
    metric      rate       errors / length   parts
    der         10.00 %     2.000 / 20.000 s  missed 1.000, false alarm 0.500, confusion 0.500 (collar 0.25 s)
    cpwer       25.00 %         2 / 8         S 1, I 0, D 1
    """
    lines = ["metric      rate       errors / length   parts"]
    for key in DER_METRICS:
        der = scores.get(key)
        if der:
            errors = der["missed"] + der["false_alarm"] + der["confusion"]
            lines.append(
                f"{key:<11} {_percent(der['error_rate']):<10} {errors:>6.3f} / {der['scored']:.3f} s  "
                f"missed {der['missed']:.3f}, false alarm {der['false_alarm']:.3f}, "
                f"confusion {der['confusion']:.3f} (collar {der['collar']} s)"
            )
    for key in WORD_METRICS:
        counts = scores.get(key)
        if counts:
            lines.append(
                f"{key:<11} {_percent(counts['error_rate']):<10} {counts['errors']:>6} / "
                f"{counts['length']:<9} S {counts['substitutions']}, I {counts['insertions']}, "
                f"D {counts['deletions']}"
            )
        elif key in scores:
            lines.append(f"{key:<11} {'-':<10} not computed (see the notes)")
    if any(k in scores for k in DIAGNOSIS_RATES):
        parts = ", ".join(f"{k} {_percent(scores.get(k))}" for k in DIAGNOSIS_RATES)
        lines.append(f"diagnosis   {parts}")
    return "\n".join(lines)


def warning_lines(scores: Mapping[str, Any]) -> list[str]:
    """Every note of the JSON as one line (a metric not computed says why there)."""
    return [f"warning: {note}" for note in scores.get("notes", [])]


def say(scores: Mapping[str, Any], as_json: bool) -> None:
    """Every note on standard error, one line each; then the JSON (asked, or standard output is
    not a terminal: what scripts read) or the table."""
    for line in warning_lines(scores):
        print(line, file=sys.stderr)
    if as_json or not sys.stdout.isatty():
        print(json.dumps(scores, ensure_ascii=False, indent=2))
    else:
        print(score_table(scores))
