"""Diarization error rate with pyannote.metrics, against a UEM, with a collar stated as a half-width.

**Collar.** MS-Bench says "a 0.5-second collar" and names no tool.
pyannote.metrics' ``collar=0.5`` removes 0.25 s on each side of every
reference boundary (its collar is the total width); md-eval's and dscore's
``-c 0.5`` remove 0.5 s on each side. The CHiME-7 DASR scorer uses pyannote
with 500 ms, i.e. +-0.25 s. msbench takes +-0.25 s as the default reading,
states it as the half-width ``collar`` (seconds each side) in the config and
the output, passes ``2 * collar`` to pyannote, and always reports collar 0
beside it. Overlapped speech is scored (``skip_overlap=False``).

**UEM.** Always scored against a UEM (the unit's scored spans, or a UEM
file's spans: their union, every span kept): without one, md-eval-style
scorers ignore false alarms before the first and after the last reference
segment, a known pitfall. md-eval's ``sd_test1`` (three spans for one file)
scores 9.6 s of speaker time here, as pyannote.metrics does over the three
spans.

**Units.** Seconds are rounded to the microsecond (pyannote sums floats:
``1.7999999999999972`` is 1.8). The rate is undefined (``None``) when the
reference has no speech in the spans; it is never reported as 0.

**Segments.** Each speaker's own segments are merged first (exactly, in
integer microseconds, :mod:`msbench.timeline`), as for the features: a speaker
never overlaps itself, and two overlapping segments of one speaker count once,
not twice. Every merged turn gets its own track in the pyannote ``Annotation``,
so two speakers with identical times never overwrite each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from msbench.timeline import SpeakerTimeline, to_seconds

DEFAULT_COLLAR = 0.25  # seconds on each side of a reference boundary


@dataclass(frozen=True)
class DiarizationError:
    missed: float
    false_alarm: float
    confusion: float
    scored: float  # seconds of reference speech scored (pyannote's "total")
    collar: float  # half-width, seconds

    @property
    def error_rate(self) -> float | None:
        """(missed + false alarm + confusion) / scored; None when nothing is scored."""
        if not self.scored:
            return None
        return (self.missed + self.false_alarm + self.confusion) / self.scored

    def to_dict(self) -> dict[str, float | None]:
        return {
            "error_rate": self.error_rate,
            "missed": self.missed,
            "false_alarm": self.false_alarm,
            "confusion": self.confusion,
            "scored": self.scored,
            "collar": self.collar,
        }


def _annotation(timeline: SpeakerTimeline) -> Any:
    """A pyannote Annotation of each speaker's merged turns, one track per turn."""
    from pyannote.core import Annotation
    from pyannote.core import Segment as Interval

    annotation = Annotation()
    for track, turn in enumerate(timeline.turns()):
        annotation[Interval(to_seconds(turn.start), to_seconds(turn.end)), f"t{track}"] = (
            turn.speaker
        )
    return annotation


def diarization_error(
    reference: SpeakerTimeline,
    hypothesis: SpeakerTimeline,
    spans: Sequence[tuple[float, float]],
    collar: float,
) -> DiarizationError:
    """DER components (seconds) of ``hypothesis`` against ``reference`` inside ``spans``.

    Both sides are timelines (each speaker's merged turns, :meth:`SpeakerTimeline.of`):
    a unit builds them once and hands them to every metric.
    """
    from pyannote.core import Segment as Interval
    from pyannote.core import Timeline
    from pyannote.metrics.diarization import DiarizationErrorRate

    intervals = [Interval(a, b) for a, b in spans if b > a]
    if not intervals:
        return DiarizationError(0.0, 0.0, 0.0, 0.0, collar)
    metric = DiarizationErrorRate(collar=2 * collar, skip_overlap=False)
    parts = metric(
        _annotation(reference), _annotation(hypothesis), uem=Timeline(intervals), detailed=True
    )
    return DiarizationError(
        missed=_micro(parts["missed detection"]),
        false_alarm=_micro(parts["false alarm"]),
        confusion=_micro(parts["confusion"]),
        scored=_micro(parts["total"]),
        collar=collar,
    )


def _micro(seconds: float) -> float:
    """Seconds rounded to the microsecond (pyannote's float sums drift below it)."""
    return round(float(seconds), 6) + 0.0


def speaker_mapping(reference: SpeakerTimeline, hypothesis: SpeakerTimeline) -> dict[str, str]:
    """Reference speaker -> hypothesis speaker: pyannote.metrics' optimal (DER) mapping."""
    from pyannote.metrics.diarization import DiarizationErrorRate

    if not reference.speakers or not hypothesis.speakers:
        return {}
    mapping = DiarizationErrorRate().optimal_mapping(
        _annotation(reference), _annotation(hypothesis)
    )
    return {str(ref): str(hyp) for hyp, ref in mapping.items()}
