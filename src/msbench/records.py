"""The common record types every adapter produces.

Segments use meeteval's SegLST field names (``session_id``, ``speaker``,
``start_time``, ``end_time``, ``words``) so that meeteval and pyannote tooling
read our tables directly. Times are seconds from the start of the recording.

Identifiers are namespaced like the official MS-Bench release:
recording ``<source>::<session>`` and speaker ``<source>::<session>::<label>``,
because corpus speaker labels are often local to a session.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from msbench.eligibility import REJECTION_CODES

ID_SEPARATOR = "::"

#: A scored region: sorted, disjoint, non-touching ``(start, end)`` spans in seconds (a UEM's).
ScoredSpans = tuple[tuple[float, float], ...]


def recording_id(source: str, session: str) -> str:
    """``aishell4`` + ``M_R003S01C01`` -> ``aishell4::M_R003S01C01``."""
    return f"{source}{ID_SEPARATOR}{session}"


def speaker_id(source: str, session: str, label: str) -> str:
    """Globally unique speaker id: ``<source>::<session>::<label>``."""
    return f"{source}{ID_SEPARATOR}{session}{ID_SEPARATOR}{label}"


@dataclass(frozen=True, order=True)
class Segment:
    """One reference utterance of one speaker, SegLST style.

    ``origin`` says where it came from (``file:line`` or ``file:tier/interval``)
    so that problems can be reported precisely; it is not part of SegLST.
    """

    session_id: str
    start_time: float
    end_time: float
    speaker: str
    words: str | None = None
    origin: str = field(default="", compare=False)

    @property
    def duration(self) -> float:
        return self.end_time - self.start_time

    def with_times(self, start_time: float, end_time: float) -> Segment:
        return replace(self, start_time=start_time, end_time=end_time)

    def to_seglst(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "session_id": self.session_id,
            "speaker": self.speaker,
            "start_time": self.start_time,
            "end_time": self.end_time,
        }
        if self.words is not None:
            row["words"] = self.words
        return row


@dataclass(frozen=True)
class SessionAnnotation:
    """Everything one annotation source says about one session.

    ``duration`` is what the annotation itself knows about the recording length
    (UEM end, TextGrid ``xmax``, lhotse duration), or None.
    ``audio_path`` is set by formats that name their audio (lhotse, CHiME JSON).
    ``segments`` are every segment the file gives, in start order (equal
    starts in the file's order), zero-length ones included: they hold no
    speech but may hold words (scoring keeps them for the WER family; ingest
    drops them, see :attr:`speech_segments`). ``problems`` holds per-segment
    faults found while parsing; a session with problems is rejected, never
    silently repaired. ``notes`` lists what was dropped with a reason that
    does not reject the session (an aligner's phone tier); ``zero_length``
    names each zero-length segment (``ingest.strict_segments`` turns them
    into problems).
    """

    session_id: str
    file: str
    segments: tuple[Segment, ...]
    duration: float | None = None
    audio_path: str | None = None
    problems: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    zero_length: tuple[str, ...] = ()

    @property
    def speech_segments(self) -> tuple[Segment, ...]:
        """The segments of positive length (what the timeline, the features and DER see)."""
        return tuple(s for s in self.segments if s.end_time > s.start_time)


@dataclass(frozen=True)
class Recording:
    """One characterizable recording: audio facts plus dataset-sheet metadata."""

    recording_id: str
    source_dataset: str
    session_id: str
    audio_path: str
    duration_seconds: float
    sample_rate: int
    num_channels: int
    channel: int
    language: str
    scenario: str
    recording_device: str
    annotation_file: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> Recording:
        return cls(**{name: row[name] for name in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Rejection:
    """A recording (or file) left out of the run, and why."""

    recording_id: str
    source_dataset: str
    file: str
    reason: str
    stage: str

    @property
    def code(self) -> str:
        """The stable code of :mod:`msbench.eligibility` for this stage's rejections."""
        return REJECTION_CODES[self.stage]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_row(self) -> dict[str, Any]:
        """The ``rejected.csv`` row (with the code)."""
        return {**asdict(self), "code": self.code}


@dataclass(frozen=True)
class IngestedRecording:
    recording: Recording
    segments: tuple[Segment, ...]
    transcript: tuple[Segment, ...] = ()
    notes: tuple[str, ...] = ()
    scored_spans: ScoredSpans = ()  # the scored region (UEM spans, or the whole audio)

    @property
    def spans(self) -> ScoredSpans:
        """The scored region; ``((0, duration),)`` for records written without one."""
        return self.scored_spans or ((0.0, self.recording.duration_seconds),)

    def to_dict(self) -> dict[str, Any]:
        return {
            "recording": self.recording.to_dict(),
            "segments": [s.to_seglst() for s in self.segments],
            "transcript": [s.to_seglst() for s in self.transcript],
            "notes": list(self.notes),
            "scored_spans": [list(span) for span in self.spans],
        }

    @classmethod
    def from_dict(cls, row: dict[str, Any]) -> IngestedRecording:
        def segments(items: list[dict[str, Any]]) -> tuple[Segment, ...]:
            return tuple(
                Segment(
                    s["session_id"], s["start_time"], s["end_time"], s["speaker"], s.get("words")
                )
                for s in items
            )

        return cls(
            Recording.from_dict(row["recording"]),
            segments(row["segments"]),
            segments(row.get("transcript", [])),
            tuple(row.get("notes", [])),
            tuple((float(a), float(b)) for a, b in row.get("scored_spans", [])),
        )
