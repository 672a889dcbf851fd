"""Diarization error rate in exact microseconds, with the collar where md-eval and pyannote put it.

**Formula** (md-eval's, pyannote.metrics' ``DiarizationErrorRate``): over the
scored time, cut into pieces where no speaker starts or stops, with ``n_ref``
and ``n_hyp`` speakers active and ``n_map`` of the reference speakers' mapped
hypothesis speakers active too, ``missed = sum d * max(n_ref - n_hyp, 0)``,
``false_alarm = sum d * max(n_hyp - n_ref, 0)``, ``confusion = sum d *
(min(n_ref, n_hyp) - n_map)``, ``scored = sum d * n_ref``; DER = (missed +
false alarm + confusion) / scored. The mapping is one-to-one and maximises the
time a reference speaker and its hypothesis speaker talk together (scipy's
``linear_sum_assignment``, the Hungarian method both tools use). Overlapped
speech is scored.

**Collar.** MS-Bench says "a 0.5-second collar" and names no tool.
pyannote.metrics' ``collar=0.5`` removes 0.25 s on each side of every
reference boundary (its collar is the total width); md-eval's and dscore's
``-c 0.25`` remove 0.25 s on each side (``-c`` is the half-width). The
CHiME-7 DASR scorer uses pyannote with 500 ms, i.e. +-0.25 s. msbench takes
+-0.25 s as the default reading, states it as the half-width ``collar``
(seconds each side) in the config and the output, and always reports collar 0
beside it.

**Conventions** (``scoring.der_convention``, ``msbench score --der-convention``),
which differ only where a collar is removed and where the mapping is chosen:

``boundaries`` (default)  a collar at both ends of every reference *segment*
                        of positive length, as written (two touching segments
                        of one speaker: a collar at their shared boundary too);
                        the mapping on the time left after the collars. This
                        is where md-eval and pyannote.metrics agree: equal to
                        pyannote.metrics (``collar=2c``) on the un-merged
                        segments wherever no speaker overlaps itself.
``md-eval``             md-eval-22.pl's ``-c c``: collars as above and also
                        around every zero-length reference segment; the
                        mapping chosen over the whole UEM, before the collars.
                        Equal to md-eval's own output (``tests/unit/test_der_md_eval.py``,
                        ``test_der_md_eval_narrow.py``: narrow UEM gaps, zero-length
                        turns at span edges) except where two speaker mappings
                        share the greatest overlap and md-eval's Kuhn-Munkres
                        picks the other one (1 of 1,000 narrow-gap sessions at
                        0.25 s, 0.03 s of confusion); ``mapping=`` (md-eval's
                        ``-m`` report) then reproduces md-eval exactly.
``merged-turns``        msbench's earlier reading: collars only at the
                        boundaries of each speaker's merged turns (none
                        between touching segments of one speaker); the mapping
                        after the collars.

Measured on one small case (reference A on 1.0-2.0 and 3.0-5.0 s as two
segments, hypothesis x on 1.0-2.9 s, UEM 0-7 s, collar 0.25 s):
``boundaries`` and ``md-eval`` 0.500 (md-eval 0.500, pyannote 0.500); merged
turns 0.529.

**UEM.** Always scored against a UEM (the unit's scored spans, or a UEM
file's spans: their union, every span kept): without one, md-eval-style
scorers ignore false alarms before the first and after the last reference
segment, a known pitfall. md-eval's ``sd_test1`` (three spans for one file)
scores 9.6 s of speaker time here, as pyannote.metrics does over the three
spans.

**Units.** Integer microseconds throughout (:mod:`msbench.timeline`); seconds
are reported as microseconds / 10^6. The rate is undefined (``None``) when
the reference has no speech in the spans; it is never reported as 0.

**Segments.** Each speaker's own segments are merged for the scoring
(exactly, :mod:`msbench.timeline`): a speaker never overlaps itself, and two
overlapping segments of one speaker count once, as md-eval counts them
(pyannote.metrics counts such time twice). Two speakers with identical times
both count.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from msbench.timeline import Span, SpeakerTimeline, merge, subtract, to_micros, to_seconds

DEFAULT_COLLAR = 0.25  # seconds on each side of a reference boundary


@dataclass(frozen=True)
class DiarizationError:
    missed: float
    false_alarm: float
    confusion: float
    scored: float  # seconds of reference speech scored (pyannote's "total")
    collar: float  # half-width, seconds
    convention: str = "boundaries"  # where collars go and the mapping is chosen

    @property
    def error_rate(self) -> float | None:
        """(missed + false alarm + confusion) / scored; None when nothing is scored."""
        if not self.scored:
            return None
        return (self.missed + self.false_alarm + self.confusion) / self.scored

    def __add__(self, other: DiarizationError) -> DiarizationError:
        """Two sessions' parts, summed in integer microseconds (each part is a whole number of
        them), so a total prints as ``1.41``, never ``1.4100000000000001``.

        >>> a = DiarizationError(0.1, 0.2, 0.0, 1.0, 0.25)
        >>> (a + DiarizationError(0.2, 0.0, 0.01, 2.0, 0.25)).missed
        0.3
        """

        def total(x: float, y: float) -> float:
            return to_seconds(to_micros(x) + to_micros(y))

        return replace(
            self,
            missed=total(self.missed, other.missed),
            false_alarm=total(self.false_alarm, other.false_alarm),
            confusion=total(self.confusion, other.confusion),
            scored=total(self.scored, other.scored),
        )

    def to_dict(self) -> dict[str, float | str | None]:
        return {
            "error_rate": self.error_rate,
            "missed": self.missed,
            "false_alarm": self.false_alarm,
            "confusion": self.confusion,
            "scored": self.scored,
            "collar": self.collar,
            "convention": self.convention,
        }


#: How a DER is read: where collars are removed and where the mapping is chosen (module docstring).
DER_CONVENTIONS = ("boundaries", "md-eval", "merged-turns")
DEFAULT_DER_CONVENTION = "boundaries"


def collar_zones(
    boundaries: Sequence[tuple[int, int]],
    reference: SpeakerTimeline,
    collar: float,
    convention: str,
) -> list[Span]:
    """The no-score zones (µs): ``collar`` each side of the boundaries the convention names.

    ``boundaries``: the reference's segments as written, ``(start, end)`` µs.

    >>> line = SpeakerTimeline.from_segments([("A", 1.0, 2.0), ("A", 2.0, 3.0)])
    >>> collar_zones([(1000000, 2000000), (2000000, 3000000)], line, 0.25, "boundaries")
    [(750000, 1250000), (1750000, 2250000), (2750000, 3250000)]
    >>> collar_zones([(1000000, 2000000), (2000000, 3000000)], line, 0.25, "merged-turns")
    [(750000, 1250000), (2750000, 3250000)]
    """
    if convention not in DER_CONVENTIONS:
        raise ValueError(f"unknown DER convention {convention!r}: use one of {DER_CONVENTIONS}")
    width = to_micros(collar)
    if width <= 0:
        return []
    if convention == "merged-turns":
        points = [t for turn in reference.turns() for t in (turn.start, turn.end)]
    else:
        keep_empty = convention == "md-eval"
        points = [t for a, b in boundaries if b > a or keep_empty for t in (a, b)]
    return merge((t - width, t + width) for t in points)


@dataclass(frozen=True)
class _Pieces:
    """The time cut where any speaker starts or stops: durations and who is active (bool rows)."""

    durations: np.ndarray  # int64 µs
    ref: np.ndarray  # (reference speakers, pieces)
    hyp: np.ndarray  # (hypothesis speakers, pieces)
    scored: np.ndarray  # bool: inside the scored region
    mapped: np.ndarray  # bool: inside the region the mapping is chosen on
    names: tuple[list[str], list[str]] = ([], [])  # the speakers of the ref and hyp rows


def _pieces(
    reference: SpeakerTimeline,
    hypothesis: SpeakerTimeline,
    scored: Sequence[Span],
    mapping_region: Sequence[Span],
) -> _Pieces:
    names = tuple(
        [name for name, spans in line.turns_by_speaker.items() if spans]
        for line in (reference, hypothesis)
    )
    sides = [
        [spans for spans in line.turns_by_speaker.values() if spans]
        for line in (reference, hypothesis)
    ]
    cuts = {t for region in (scored, mapping_region) for span in region for t in span}
    cuts |= {t for side in sides for spans in side for span in spans for t in span}
    points = np.array(sorted(cuts), dtype=np.int64)

    def active(spans_list: list[tuple[Span, ...]] | list[list[Span]]) -> np.ndarray:
        out = np.zeros((len(spans_list), max(0, len(points) - 1)), dtype=bool)
        for row, spans in enumerate(spans_list):
            marks = np.zeros(len(points), dtype=np.int64)
            for a, b in spans:
                marks[np.searchsorted(points, a)] += 1
                marks[np.searchsorted(points, b)] -= 1
            out[row] = np.cumsum(marks)[:-1] > 0
        return out

    return _Pieces(
        np.diff(points),
        active(sides[0]),
        active(sides[1]),
        active([list(scored)])[0] if len(points) > 1 else np.zeros(0, dtype=bool),
        active([list(mapping_region)])[0] if len(points) > 1 else np.zeros(0, dtype=bool),
        (names[0], names[1]),
    )


def _mapping(pieces: _Pieces) -> list[tuple[int, int]]:
    """(reference row, hypothesis row) pairs maximising their joint time in the mapping region."""
    from scipy.optimize import linear_sum_assignment

    if not len(pieces.ref) or not len(pieces.hyp):
        return []
    weight = (pieces.durations * pieces.mapped).astype(np.int64)
    together = (pieces.ref * weight).astype(np.int64) @ pieces.hyp.T.astype(np.int64)
    rows, cols = linear_sum_assignment(together, maximize=True)
    return [(int(r), int(c)) for r, c in zip(rows, cols, strict=True) if together[r, c] > 0]


def _named(pieces: _Pieces, mapping: Mapping[str, str]) -> list[tuple[int, int]]:
    """``mapping``'s pairs as (reference row, hypothesis row); speakers without rows skipped."""
    ref, hyp = pieces.names
    return [(ref.index(r), hyp.index(h)) for r, h in mapping.items() if r in ref and h in hyp]


def diarization_error(
    reference: SpeakerTimeline,
    hypothesis: SpeakerTimeline,
    spans: Sequence[tuple[float, float]],
    collar: float,
    boundaries: Sequence[tuple[int, int]] | None = None,
    convention: str = DEFAULT_DER_CONVENTION,
    mapping: Mapping[str, str] | None = None,
) -> DiarizationError:
    """DER components (seconds) of ``hypothesis`` against ``reference`` inside ``spans``.

    ``mapping``: reference speaker -> hypothesis speaker to score with instead of the optimal
    one (for instance md-eval's own, printed by its ``-m``: where two mappings are equally good,
    md-eval's Kuhn-Munkres over its floating-point sums picks one, scipy's another).

    Both sides are timelines (each speaker's merged turns, :meth:`SpeakerTimeline.of`):
    a unit builds them once and hands them to every metric. ``boundaries``: the
    reference's segments as written (µs; default: its merged turns).
    """
    uem = merge((to_micros(a), to_micros(b)) for a, b in spans)
    if not uem:
        return DiarizationError(0.0, 0.0, 0.0, 0.0, collar, convention)
    if boundaries is None:
        boundaries = [(turn.start, turn.end) for turn in reference.turns()]
    scored = subtract(uem, collar_zones(boundaries, reference, collar, convention))
    pieces = _pieces(reference, hypothesis, scored, uem if convention == "md-eval" else scored)
    n_ref, n_hyp = pieces.ref.sum(axis=0), pieces.hyp.sum(axis=0)
    n_map = np.zeros_like(n_ref)
    pairs = _mapping(pieces) if mapping is None else _named(pieces, mapping)
    for r, h in pairs:
        n_map += pieces.ref[r] & pieces.hyp[h]
    d = pieces.durations * pieces.scored

    def seconds(values: np.ndarray) -> float:
        return to_seconds(int((d * values).sum()))

    return DiarizationError(
        missed=seconds(np.maximum(n_ref - n_hyp, 0)),
        false_alarm=seconds(np.maximum(n_hyp - n_ref, 0)),
        confusion=seconds(np.minimum(n_ref, n_hyp) - n_map),
        scored=seconds(n_ref),
        collar=collar,
        convention=convention,
    )


def speaker_mapping(reference: SpeakerTimeline, hypothesis: SpeakerTimeline) -> dict[str, str]:
    """Reference speaker -> hypothesis speaker: pyannote.metrics' optimal (DER) mapping
    (``HungarianMapper``): the one-to-one assignment of the largest total co-occurrence, by
    scipy's ``linear_sum_assignment`` over the speakers in sorted order, a pair kept only where
    the two speakers overlap at all. The co-occurrence is counted here in exact microseconds
    (pyannote sums float seconds; ``tests/unit/test_scoring.py`` holds the mappings equal on
    seeded sessions), in time linear in the turns instead of pyannote's annotation algebra.
    """
    from scipy.optimize import linear_sum_assignment

    hyp_labels, ref_labels = sorted(hypothesis.speakers), sorted(reference.speakers)
    if not ref_labels or not hyp_labels:
        return {}
    matrix = np.array(
        [
            [shared_time(hypothesis.turns_by_speaker[h], reference.turns_by_speaker[r])
             for r in ref_labels]
            for h in hyp_labels
        ],
        dtype=float,
    )  # fmt: skip
    rows, columns = linear_sum_assignment(-matrix)
    return {
        ref_labels[c]: hyp_labels[r]
        for r, c in zip(rows.tolist(), columns.tolist(), strict=True)
        if matrix[r, c] > 0
    }


def shared_time(a: Sequence[Span], b: Sequence[Span]) -> int:
    """The time two sorted, disjoint span lists share (microseconds), in one sweep.

    >>> shared_time([(0, 10), (20, 30)], [(5, 25), (28, 40)])
    12
    """
    shared, i, j = 0, 0, 0
    while i < len(a) and j < len(b):
        start, end = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if end > start:
            shared += end - start
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return shared
