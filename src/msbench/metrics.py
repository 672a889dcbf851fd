"""Every rate msbench reports, declared once: pyannote.metrics' idea of a metric as its
sufficient statistics and a formula (``metric_components()``, ``compute_metric(components)``).

A :class:`Metric` names the count columns it is computed from (``numerators`` over a
``denominator``, all of one ``unit``), and its rate is always the ratio of their sums, never a
mean of rates: a unit, a recording, a condition, a system on the benchmark, a bootstrap
resample and a permutation of the paired test all sum the same statistics and call
:meth:`Metric.rate`. The score columns (:mod:`msbench.columns`), the aggregation and the
leaderboard (:mod:`msbench.scoring.aggregate`), the comparison's intervals and tests
(:mod:`msbench.comparison`), Table 2's bootstrap, the results page and the review site (through
the site's data) all read :data:`METRICS`; a metric added here is in each of them with no other
change (``tests/unit/test_metric_registry.py`` adds a toy one and finds it everywhere).

This module is pure data, on the foundations floor, because the declared tables' columns
(:mod:`msbench.columns`, :mod:`msbench.catalog`) derive from it.

Conventions: rates are fractions (the tables print percent where the release does); DER's
statistics are seconds (exact sums in integer microseconds upstream), the WER family's are
tokens of the scoring tokenizer, E_attr's are utterances; ``direction`` is ``lower`` (lower is
better) for every error rate, ``none`` for R_time (a ratio of speech durations, 1 is ideal).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

#: What a metric's statistics count; seconds are floats, the others whole numbers.
UNITS = ("seconds", "tokens", "utterances")


@dataclass(frozen=True)
class Metric:
    """One rate: ``sum(numerators) / denominator`` over summed count columns.

    ``family``: ``der``, ``wer`` or ``diagnosis`` (how pages group them); ``counts``: a WER
    family's count prefix (``cp`` for ``cp_errors``, ``cp_length``, ``cp_substitutions``, ...)
    whose absence on a unit with words makes the metric undefined in a sum; ``parts``: further
    count columns reported beside the statistics (S, I, D); ``compared``: gets intervals, paired
    tests, leaderboard views and a place on the results page and the review index; ``release``:
    a field of the MS-Bench release's ``leaderboard.json``.
    """

    name: str
    label: str
    numerators: tuple[str, ...]
    denominator: str
    unit: str
    family: str
    description: str
    counts: str | None = None
    parts: tuple[str, ...] = ()
    direction: str = "lower"
    compared: bool = True
    release: bool = False

    @property
    def statistics(self) -> tuple[str, ...]:
        """The sufficient statistics: the numerators, then the denominator."""
        return (*self.numerators, self.denominator)

    def rate(self, sums: Mapping[str, Any]) -> float | None:
        """The rate of summed statistics (a fraction); None where the denominator is 0 or missing.

        >>> BY_NAME["cpwer"].rate({"cp_errors": 3, "cp_length": 12})
        0.25
        >>> BY_NAME["der"].rate({"der_missed": 1.0, "der_scored": 0.0}) is None
        True
        """
        denominator = sums.get(self.denominator)
        if not denominator:
            return None
        return sum(sums.get(c) or 0 for c in self.numerators) / denominator


def _der(name: str, label: str, prefix: str, description: str, **flags: Any) -> Metric:
    parts = tuple(f"{prefix}_{p}" for p in ("missed", "false_alarm", "confusion"))
    return Metric(name, label, parts, f"{prefix}_scored", "seconds", "der", description, **flags)


def _wer(name: str, label: str, prefix: str, description: str, **flags: Any) -> Metric:
    parts = tuple(f"{prefix}_{p}" for p in ("substitutions", "insertions", "deletions"))
    numerators, denominator = (f"{prefix}_errors",), f"{prefix}_length"
    return Metric(
        name,
        label,
        numerators,
        denominator,
        "tokens",
        "wer",
        description,
        counts=prefix,
        parts=parts,
        **flags,
    )


METRICS: tuple[Metric, ...] = (
    _der(
        "der",
        "DER",
        "der",
        "diarization error rate: (missed + false alarm + confusion) "
        "seconds / scored reference speech seconds, collar at reference boundaries",
        release=True,
    ),
    _der("der_collar0", "DER (no collar)", "der0", "DER with no collar", compared=False),
    _wer("cpwer", "cpWER", "cp", "concatenated minimum-permutation WER", release=True),
    _wer("tcpwer", "tcpWER", "tcp", "time-constrained cpWER (collar 5 s)", release=True),
    _wer(
        "wer",
        "WER",
        "wer",
        "speaker-agnostic WER (each side one time-ordered stream)",
        release=True,
    ),
    _wer(
        "tcorcwer",
        "tcORC-WER",
        "tcorc",
        "time-constrained optimal reference combination WER",
        compared=False,
    ),
    Metric(
        "e_lex",
        "E_lex",
        ("s", "i_lex", "d_lex"),
        "n_ref",
        "tokens",
        "diagnosis",
        "lexical errors (S + I_lex + D_lex) / reference tokens",
    ),
    Metric(
        "e_seg",
        "E_seg",
        ("i_seg", "d_seg"),
        "n_ref",
        "tokens",
        "diagnosis",
        "segmentation errors (I_seg + D_seg) / reference tokens",
    ),
    Metric(
        "e_attr",
        "E_attr",
        ("utterances_misattributed",),
        "utterances_attributable",
        "utterances",
        "diagnosis",
        "misattributed / attributable reference utterances",
    ),
    Metric(
        "r_time",
        "R_time",
        ("t_hyp",),
        "t_ref",
        "seconds",
        "diagnosis",
        "hypothesis speech seconds / reference speech seconds",
        direction="none",
        compared=False,
    ),
)

BY_NAME: dict[str, Metric] = {m.name: m for m in METRICS}
#: The metrics with intervals, paired tests and leaderboard views, in declaration order.
COMPARED: tuple[Metric, ...] = tuple(m for m in METRICS if m.compared)
#: The WER-family metrics with counts of their own: name -> count prefix.
WER_COUNTS: dict[str, str] = {m.name: m.counts for m in METRICS if m.counts}


def metric(name: str) -> Metric:
    """The metric of a name, or a ``KeyError`` listing the names.

    >>> metric("cpwer").label
    'cpWER'
    >>> metric("cpWER")
    Traceback (most recent call last):
    KeyError: "no metric 'cpWER' (metrics: der, der_collar0, cpwer, tcpwer, wer, tcorcwer, e_lex, e_seg, e_attr, r_time)"
    """
    if name not in BY_NAME:
        raise KeyError(f"no metric {name!r} (metrics: {', '.join(BY_NAME)})")
    return BY_NAME[name]


def site_metrics() -> list[dict[str, str]]:
    """The compared metrics as the review site's script reads them (``name``, ``label``)."""
    return [{"name": m.name, "label": m.label} for m in COMPARED]
