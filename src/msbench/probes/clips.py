"""Probe clips: at most ``max_seconds`` of a recording, cut in silences, with two or more speakers.

Cuts are :func:`msbench.scoring.units.silence_cuts` (the inference units' rule:
the longest reference silence of the last ``search_seconds`` before the
limit). A clip keeps the reference lines that lie inside it; it is used when at
least two speakers say words in it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from msbench.rows import RecordingRow
from msbench.scoring.units import recording_spans, silence_cuts
from msbench.timeline import SpeakerTimeline, merge, to_micros


@dataclass(frozen=True)
class Line:
    """One reference utterance (recording time, seconds)."""

    speaker: str
    start: float
    end: float
    words: str

    @property
    def seconds(self) -> float:
        return self.end - self.start


@dataclass(frozen=True)
class Clip:
    clip_id: str
    recording_id: str
    start: float
    end: float
    lines: tuple[Line, ...]
    labels: Mapping[str, str | None] = field(default_factory=dict)
    session_lines: tuple[Line, ...] = ()  # every line of the recording (other voices)

    @cached_property
    def timeline(self) -> SpeakerTimeline:
        return SpeakerTimeline.from_segments((s.speaker, s.start, s.end) for s in self.lines)

    @cached_property
    def session_timeline(self) -> SpeakerTimeline:
        return SpeakerTimeline.from_segments(
            (s.speaker, s.start, s.end) for s in self.session_lines or self.lines
        )

    @property
    def speaking(self) -> list[str]:
        """Speakers who say words in the clip, sorted."""
        return sorted({line.speaker for line in self.lines if line.words.strip()})

    def lines_of(self, speaker: str) -> list[Line]:
        return [line for line in self.lines if line.speaker == speaker]


def lines_by_recording(utterances: Sequence[Mapping[str, Any]]) -> dict[str, list[Line]]:
    by_recording: dict[str, list[Line]] = {}
    for row in utterances:
        line = Line(
            str(row["speaker"]),
            float(row["start_time"]),
            float(row["end_time"]),
            str(row.get("words") or ""),
        )
        by_recording.setdefault(str(row["recording_id"]), []).append(line)
    return {
        rid: sorted(lines, key=lambda x: (x.start, x.end, x.speaker))
        for rid, lines in by_recording.items()
    }


def recording_clips(
    recording: RecordingRow,
    lines: Sequence[Line],
    max_seconds: float,
    search_seconds: float = 30.0,
) -> list[Clip]:
    """The recording's clips with two or more speaking speakers, in time order."""
    rid = recording["recording_id"]
    speech = merge((to_micros(x.start), to_micros(x.end)) for x in lines)
    labels = {"P": recording["P"], "O": recording["O"], "S": recording["S"]}
    labels |= {"T": recording["T"], "N": recording["N"]}
    clips = []
    for unit in silence_cuts(rid, recording_spans(recording), speech, max_seconds, search_seconds):
        inside = tuple(x for x in lines if x.start >= unit.start and x.end <= unit.end)
        clip = Clip(unit.unit_id, rid, unit.start, unit.end, inside, labels, tuple(lines))
        if len(clip.speaking) >= 2:
            clips.append(clip)
    return clips


def probed_clips(
    rows: Mapping[str, RecordingRow],
    utterances: Sequence[Mapping[str, Any]],
    chosen: Sequence[str],
    probes: Mapping[str, Any],
) -> list[Clip]:
    """The clips of the chosen recordings (of ``probes.sources``, with two or more speakers)."""
    if probes["sources"]:
        chosen = [rid for rid in chosen if rows[rid]["source_dataset"] in probes["sources"]]
    lines = lines_by_recording(utterances)
    return [
        clip
        for rid in chosen
        if (rows[rid].get("num_speakers") or 0) >= 2
        for clip in recording_clips(
            rows[rid], lines.get(rid, []), probes["max_clip_seconds"], probes["search_seconds"]
        )
    ]
