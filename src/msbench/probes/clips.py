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

from msbench.records import IngestedRecording, speaker_id
from msbench.rows import RecordingRow
from msbench.scoring.units import recording_spans, silence_cuts
from msbench.timeline import SpeakerTimeline, merge, to_micros


@dataclass(frozen=True)
class Line:
    """One reference utterance (recording time, seconds); ``words`` as shown (text.shown_text)."""

    speaker: str
    start: float
    end: float
    words: str
    transcript: str = ""  # the words as the transcript writes them

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
    activity: tuple[tuple[str, float, float], ...] = ()  # the annotation's speech, recording-wide

    @cached_property
    def timeline(self) -> SpeakerTimeline:
        """Who is active in the clip: its lines and the annotation's speech segments (an RTTM
        also marks speech without words: laughs, hums), cut to the clip."""
        inside = (
            (speaker, max(a, self.start), min(b, self.end))
            for speaker, a, b in self.activity
            if min(b, self.end) > max(a, self.start)
        )
        return SpeakerTimeline.from_segments(
            [*((s.speaker, s.start, s.end) for s in self.lines), *inside]
        )

    @cached_property
    def session_timeline(self) -> SpeakerTimeline:
        lines = ((s.speaker, s.start, s.end) for s in self.session_lines or self.lines)
        return SpeakerTimeline.from_segments([*lines, *self.activity])

    @property
    def speaking(self) -> list[str]:
        """Speakers who say words in the clip, sorted."""
        return sorted({line.speaker for line in self.lines if line.words.strip()})

    def lines_of(self, speaker: str) -> list[Line]:
        return [line for line in self.lines if line.speaker == speaker]


def lines_by_recording(utterances: Sequence[Mapping[str, Any]]) -> dict[str, list[Line]]:
    """Each recording's lines in time order, their words as shown (:func:`shown_text`)."""
    from msbench.probes.text import capitalised, shown_text

    texts: dict[str, list[str]] = {}
    for row in utterances:
        texts.setdefault(str(row["recording_id"]), []).append(str(row.get("words") or ""))
    capitals = {rid: capitalised(t) for rid, t in texts.items()}
    by_recording: dict[str, list[Line]] = {}
    for row in utterances:
        rid, raw = str(row["recording_id"]), str(row.get("words") or "")
        line = Line(
            str(row["speaker"]),
            float(row["start_time"]),
            float(row["end_time"]),
            shown_text(raw, capitals[rid]),
            raw,
        )
        by_recording.setdefault(rid, []).append(line)
    return {
        rid: sorted(lines, key=lambda x: (x.start, x.end, x.speaker))
        for rid, lines in by_recording.items()
    }


def recording_clips(
    recording: RecordingRow,
    lines: Sequence[Line],
    max_seconds: float,
    search_seconds: float = 30.0,
    activity: Sequence[tuple[str, float, float]] = (),
) -> list[Clip]:
    """The recording's clips with two or more speaking speakers, in time order.

    ``activity``: the recording's speech segments from its annotation (speaker
    ids as the lines name them), so that who is active includes speech without words.
    """
    rid = recording["recording_id"]
    speech = merge((to_micros(x.start), to_micros(x.end)) for x in lines)
    labels = {"P": recording["P"], "O": recording["O"], "S": recording["S"]}
    labels |= {"T": recording["T"], "N": recording["N"]}
    clips = []
    for unit in silence_cuts(rid, recording_spans(recording), speech, max_seconds, search_seconds):
        inside = tuple(x for x in lines if x.start >= unit.start and x.end <= unit.end)
        clip = Clip(
            unit.unit_id, rid, unit.start, unit.end, inside, labels, tuple(lines), tuple(activity)
        )
        if len(clip.speaking) >= 2:
            clips.append(clip)
    return clips


def probed_clips(
    rows: Mapping[str, RecordingRow],
    utterances: Sequence[Mapping[str, Any]],
    chosen: Sequence[str],
    probes: Mapping[str, Any],
    activity: Mapping[str, Sequence[tuple[str, float, float]]] | None = None,
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
            rows[rid],
            lines.get(rid, []),
            probes["max_clip_seconds"],
            probes["search_seconds"],
            (activity or {}).get(rid, ()),
        )
    ]


def speech_activity(
    items: Sequence[IngestedRecording],
) -> dict[str, list[tuple[str, float, float]]]:
    """Each recording's annotation segments as ``(speaker id, start, end)`` (utterances.csv's ids)."""
    return {
        item.recording.recording_id: [
            (
                speaker_id(item.recording.source_dataset, item.recording.session_id, s.speaker),
                s.start_time,
                s.end_time,
            )
            for s in item.segments
            if s.end_time > s.start_time
        ]
        for item in items
    }
