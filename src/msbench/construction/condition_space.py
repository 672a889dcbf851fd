"""The condition space: five axes, each cut into labelled ranges.

An axis has ascending ``edges`` ``e_1 < ... < e_k`` that cut the real line into
``k + 1`` ranges, and a closure:

* ``closed: left``  -> ranges ``(-inf, e_1)``, ``[e_1, e_2)``, ..., ``[e_k, inf)``
* ``closed: right`` -> ranges ``(-inf, e_1]``, ``(e_1, e_2]``, ..., ``(e_k, inf)``

Labels run ``<axis>0 .. <axis>k`` from low to high values, or from high to low
with ``descending: true``. ``zero_bin: true`` gives the value exactly 0 a range
of its own (label index 0) ahead of the others. ``minimum`` is where the lowest
range starts: a value below it gets no label (P: a one-speaker recording is not
``P0``, which means 2 speakers). The defaults reproduce the
official MS-Bench release:

====  =========================  =============================================
axis  field                      ranges
====  =========================  =============================================
P     num_speakers               P0 = 2; P1 3-4; P2 5-8; P3 >= 9
O     overlap_ratio              O0 = 0; O1 (0, .10); O2 [.10, .20); O3 [.20, .40); O4 >= .40
S     speaker_similarity_max     S0 < .32; S1 [.32, .49); S2 [.49, .65); S3 >= .65
T     speaker_switch_q25 (s)     T0 > .45; T1 (.15, .45]; T2 (.06, .15]; T3 <= .06
N     noise_difficulty (d_N)     N0 < .27; N1 [.27, .51); N2 [.51, .74); N3 >= .74
====  =========================  =============================================

Instead of ``edges`` an axis may give ``quantiles`` (probabilities in (0, 1));
the edges are then the pool's empirical quantiles (linear interpolation),
rounded to 6 decimals, and written to ``condition_space.yaml``.

Values are binned as written in the manifests (rounded to 6 decimals), so a
user reading ``0.15`` in a table sees the label that 0.15 gets.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

AXIS_ORDER = ("P", "O", "S", "T", "N")
DECIMALS = 6


@dataclass(frozen=True)
class Axis:
    name: str
    field: str
    edges: tuple[float, ...]
    closed: str = "left"
    descending: bool = False
    zero_bin: bool = False
    mode: str = "fixed"
    minimum: float | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(f"{self.name}{i}" for i in range(len(self.edges) + 1 + self.zero_bin))

    def index(self, value: float) -> int:
        """0-based range index of ``value`` (before the zero bin and direction are applied)."""
        if self.closed == "left":
            return bisect.bisect_right(self.edges, value)
        return bisect.bisect_left(self.edges, value)

    def label(self, value: float | None) -> str | None:
        if value is None or (isinstance(value, float) and math.isnan(value)):
            return None
        value = round(float(value), DECIMALS)
        if self.minimum is not None and value < self.minimum:
            return None
        if self.zero_bin and value == 0:
            return f"{self.name}0"
        position = self.index(value)
        if self.descending:
            position = len(self.edges) - position
        return f"{self.name}{position + self.zero_bin}"

    def describe_ranges(self) -> list[dict[str, Any]]:
        """Human-readable ranges with their closure, for condition_space.yaml."""
        lowest = -math.inf if self.minimum is None else self.minimum
        bounds = [lowest, *self.edges, math.inf]
        ranges = []
        for i in range(len(self.edges) + 1):
            low, high = bounds[i], bounds[i + 1]
            left = "[" if self.closed == "left" and low != -math.inf else "("
            right = "]" if self.closed == "right" and high != math.inf else ")"
            text = f"{left}{_fmt(low)}, {_fmt(high)}{right}"
            if self.zero_bin and i == 0:
                text = f"(0, {_fmt(high)}{right}"
            ranges.append({"interval": text})
        if self.descending:
            ranges.reverse()
        if self.zero_bin:
            ranges.insert(0, {"interval": "= 0"})
        return [{"label": label, **r} for label, r in zip(self.labels, ranges, strict=True)]


def _fmt(value: float) -> str:
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return repr(value)


@dataclass(frozen=True)
class ConditionSpace:
    axes: tuple[Axis, ...]

    def axis(self, name: str) -> Axis:
        return next(a for a in self.axes if a.name == name)

    def labels(self, row: Mapping[str, Any]) -> dict[str, str | None]:
        return {axis.name: axis.label(row.get(axis.field)) for axis in self.axes}

    def to_yaml_dict(self) -> dict[str, Any]:
        return {
            "axes": {
                axis.name: {
                    "field": axis.field,
                    "mode": axis.mode,
                    "edges": list(axis.edges),
                    "closed": axis.closed,
                    "descending": axis.descending,
                    "zero_bin": axis.zero_bin,
                    "minimum": axis.minimum,
                    "ranges": axis.describe_ranges(),
                }
                for axis in self.axes
            }
        }


def profile_label(conditions: Mapping[str, str | None]) -> str | None:
    """``{"P": "P2", ...}`` -> ``"P2-O3-S2-T3-N3"``; None when any axis is unlabelled."""
    if any(conditions.get(name) is None for name in AXIS_ORDER if name in conditions):
        return None
    return "-".join(str(conditions[name]) for name in AXIS_ORDER if name in conditions)


def quantile_edges(
    values: Iterable[float | None], probabilities: Sequence[float]
) -> tuple[float, ...]:
    finite = np.asarray([v for v in values if v is not None and math.isfinite(v)], dtype=float)
    if finite.size == 0:
        raise ValueError("no values to compute quantile edges from")
    edges = np.quantile(finite, probabilities)
    return tuple(sorted({round(float(edge), DECIMALS) for edge in edges}))


def build_condition_space(
    settings: Mapping[str, Any], pool_rows: Sequence[Mapping[str, Any]] = ()
) -> ConditionSpace:
    """Axes from the ``condition_space`` config; quantile axes use ``pool_rows``' values."""
    axes = []
    for name in AXIS_ORDER:
        spec = settings["axes"][name]
        if spec.get("quantiles"):
            field = spec["field"]
            edges = quantile_edges((row.get(field) for row in pool_rows), spec["quantiles"])
            mode = "quantile"
        else:
            edges, mode = tuple(float(e) for e in spec["edges"]), "fixed"
        axes.append(
            Axis(
                name=name,
                field=spec["field"],
                edges=tuple(edges),
                closed=spec.get("closed", "left"),
                descending=spec.get("descending", False),
                zero_bin=spec.get("zero_bin", False),
                mode=mode,
                minimum=spec.get("minimum"),
            )
        )
    return ConditionSpace(tuple(axes))


def label_rows(rows: Sequence[Mapping[str, Any]], space: ConditionSpace) -> list[dict[str, Any]]:
    """Every input field kept; ``conditions`` (per-axis labels) and ``profile`` added or replaced.

    A missing feature leaves its axis unlabelled (``None``) and ``profile`` empty.
    """
    labelled = []
    for row in rows:
        conditions = space.labels(row)
        out = dict(row)
        out["conditions"] = conditions  # replaced in place when the input had it
        out["profile"] = profile_label(conditions)
        labelled.append(out)
    return labelled


def space_from_yaml_dict(document: Mapping[str, Any]) -> ConditionSpace:
    """Read back a ``condition_space.yaml`` (edges as resolved when it was written)."""
    axes = []
    for name in AXIS_ORDER:
        spec = document["axes"][name]
        axes.append(
            Axis(
                name=name,
                field=spec["field"],
                edges=tuple(float(e) for e in spec["edges"]),
                closed=spec["closed"],
                descending=spec["descending"],
                zero_bin=spec["zero_bin"],
                mode=spec["mode"],
                minimum=spec.get("minimum"),
            )
        )
    return ConditionSpace(tuple(axes))


def read_condition_space(path: str | Path) -> ConditionSpace:
    """Read a ``condition_space.yaml`` file."""
    import yaml

    from msbench.textio import read_text

    return space_from_yaml_dict(yaml.safe_load(read_text(path)))
