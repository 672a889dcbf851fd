"""What scoring one reference against one hypothesis gives: a typed value, meeteval's
``ErrorRate`` idea for every metric at once.

A :class:`ScoreReport` holds the summed counts of every session (:class:`Scores`) and each
session's own; ``+`` adds two reports (their sessions side by side, their counts summed);
:meth:`ScoreReport.rate` gives any metric of the registry (:mod:`msbench.metrics`) as the ratio
of its summed statistics; :meth:`ScoreReport.to_dict` is ``msbench score``'s JSON, unchanged
(the keys of :mod:`msbench.scoring.pair`), and ``report["cpwer"]`` reads it;
:meth:`ScoreReport.to_frame` gives one row per session where pandas is installed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from msbench.metrics import METRICS, metric
from msbench.scoring.aggregate import score_columns
from msbench.scoring.pair import Scores, add_scores
from msbench.scoring.tokenizer import describe
from msbench.scoring.wer import TCP_COLLAR


@dataclass(frozen=True, eq=False)
class ScoreReport(Mapping[str, Any]):
    """Every metric of one scoring run: ``total`` (None when nothing was scored) and
    ``sessions`` (``(session_id, Scores)`` in session order); ``notes``: every change made to
    the input, with counts; ``read``: what each file was read as. Two reports are equal when
    their JSON is (a Mapping's equality)."""

    total: Scores | None
    sessions: tuple[tuple[str, Scores], ...]
    tokenizer: str
    notes: tuple[str, ...] = ()
    tcp_collar: float = TCP_COLLAR
    read: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    def rate(self, name: str) -> float | None:
        """A metric's rate (a fraction) over every session: the ratio of its summed statistics.

        ``name`` is any metric of :mod:`msbench.metrics` (``der``, ``cpwer``, ``tcpwer``,
        ``wer``, ``e_attr``, ...); None where its denominator is 0 or a side has no words.
        """
        return metric(name).rate(self.counts())

    def counts(self) -> dict[str, Any]:
        """The summed counts as the evaluation tables' columns (``cp_errors``, ``der_missed``,
        ...) and each metric's rate; {} when nothing was scored."""
        return score_columns(self.total) if self.total is not None else {}

    def session(self, name: str) -> ScoreReport:
        """The report of one session (``KeyError`` naming the sessions when there is none)."""
        found = dict(self.sessions)
        if name not in found:
            raise KeyError(f"no session {name!r} (sessions: {', '.join(found)})")
        scores = found[name]
        return ScoreReport(
            scores, ((name, scores),), self.tokenizer, scores.notes, self.tcp_collar, self.read
        )

    def to_dict(self) -> dict[str, Any]:
        """``msbench score``'s JSON: the totals, ``tokenizer``, ``notes``, ``sessions`` and, for
        files, ``read``."""
        total = self.total
        out = {**total.to_dict(self.tcp_collar), **_orc(total)} if total is not None else {}
        out.update(tokenizer=describe(self.tokenizer), notes=list(self.notes))
        out["sessions"] = [
            {"session_id": name, **scores.to_dict(self.tcp_collar), **_orc(scores)}
            for name, scores in self.sessions
        ]
        if self.read:
            out["read"] = {side: dict(entry) for side, entry in self.read.items()}
        return out

    def to_frame(self) -> Any:
        """A pandas DataFrame, one row per session (index ``session_id``): every count column
        and every metric's rate."""
        import pandas as pd

        rows = [{"session_id": name, **score_columns(s)} for name, s in self.sessions]
        return pd.DataFrame(rows).set_index("session_id")

    def __add__(self, other: ScoreReport) -> ScoreReport:
        """Both reports' sessions, counts summed (same tokenizer and tcpWER collar only)."""
        if (self.tokenizer, self.tcp_collar) != (other.tokenizer, other.tcp_collar):
            raise ValueError(
                f"cannot add reports of tokenizer {self.tokenizer!r} (collar {self.tcp_collar}) "
                f"and {other.tokenizer!r} (collar {other.tcp_collar}): score both alike"
            )
        totals = [r.total for r in (self, other) if r.total is not None]
        return ScoreReport(
            add_scores(totals),
            self.sessions + other.sessions,
            self.tokenizer,
            self.notes + other.notes,
            self.tcp_collar,
        )

    @cached_property
    def _json(self) -> dict[str, Any]:
        return self.to_dict()

    def __getitem__(self, key: str) -> Any:
        return self._json[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._json)

    def __len__(self) -> int:
        return len(self._json)

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={value:.4f}" if value is not None else f"{name}=None"
            for name in (m.name for m in METRICS if m.release)
            for value in [self.rate(name)]
        )
        return f"ScoreReport({len(self.sessions)} session(s), {shown})"

    def __str__(self) -> str:
        from msbench.scoring.score_report import score_table

        return score_table(self.to_dict())


def _orc(scores: Scores) -> dict[str, Any]:
    return {"orcwer": scores.orcwer.to_dict() if scores.orcwer is not None else None}
