"""Ingest one source: annotations + audio -> validated recordings, or rejections with reasons.

Per session, in order, the first failing check rejects it (the others go on):

1. the annotation file cannot be read or decoded -> every session of it
   (or the file) is rejected;
2. the session id occurs more than once in the source -> every occurrence;
3. a segment is negative- or zero-length, non-finite, or has an empty speaker
   label -> the session, naming the segment's file and line;
4. the session has no segment (empty annotation);
5. the audio is missing, unreadable, has a corrupt header, or lacks the channel;
6. a segment ends more than ``end_tolerance`` seconds after the audio ends.
   Within the tolerance, segment ends are clipped to the audio end (segments
   that then start at or after the end are removed) and the change is noted;
7. its UEM lines cannot be read (a malformed, inverted, non-finite or
   overlapping span, spans that two UEM files disagree on), or a UEM file of
   the source is unreadable and the session has no span in the others.

**Scored region.** With a UEM the session's scored region is the union of
its spans (:mod:`msbench.io.uem`), cut to the audio; without one, the
whole audio. Segments are cropped to the region (a segment across a gap
between spans becomes one piece per span, its words on the longest piece),
each change counted in the notes, and ``duration_seconds`` is the region's
total length: every feature that divides by the duration (the overlap
ratio) divides by scored time. The spans travel as ``scored_spans``.

Single-speaker recordings are *not* rejected here: they are characterized and
flagged ineligible later.
"""

from __future__ import annotations

import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace

from msbench.errors import InputError
from msbench.ingest.adapters import Transcripts, read_source_annotations, read_uem_spans
from msbench.ingest.audio_facts import probe_audio
from msbench.ingest.region import clip_to_duration, crop_to_spans, scored_region
from msbench.ingest.sheet import SourceSpec, expand_glob
from msbench.ingest.transcript_speakers import match_transcript_speakers, renamed
from msbench.io.collector import session_from_filename
from msbench.io.uem import UemTable, describe_spans, scored_length
from msbench.labels import normalise_speakers
from msbench.records import (
    IngestedRecording,
    Recording,
    Rejection,
    Segment,
    SessionAnnotation,
    recording_id,
)


@dataclass
class IngestResult:
    recordings: list[IngestedRecording] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    reasons: Counter[str] = field(default_factory=Counter)  # short reason -> rejections
    warnings: list[str] = field(default_factory=list)
    left_out: int = 0  # sessions the source's `sessions` list does not name

    def reject(self, rec_id: str, source: str, file: str, reason: str, kind: str) -> None:
        """One ingest rejection, counted under ``kind`` for the summary line."""
        self.rejections.append(Rejection(rec_id, source, file, reason, "ingest"))
        self.reasons[kind] += 1

    def summary(self, source: str) -> str:
        """One line: recordings in, accepted, rejected by reason."""
        total = len(self.recordings) + len(self.rejections)
        why = ", ".join(f"{reason}: {n}" for reason, n in sorted(self.reasons.items()))
        rejected = f"{len(self.rejections)} rejected" + (f" ({why})" if why else "")
        left = f"; {self.left_out} not in its sessions list, left out" if self.left_out else ""
        return f"source {source}: {total} in, {len(self.recordings)} accepted, {rejected}{left}"


#: The longest session id: unit files are ``<source>__<session>__0000.flac`` and the like,
#: and a file name may hold 255 bytes.
MAX_SESSION_ID_BYTES = 180


def invalid_session_id(session: str) -> str:
    """Why a session id cannot name a recording ('' when it can).

    Refused: ``::`` (the id separator), a path part, control characters (a
    newline, a NUL, a tab, U+0085, and the line and paragraph separators: a CSV
    manifest, a line reader or a file name would change them),
    and more than :data:`MAX_SESSION_ID_BYTES` bytes of UTF-8 (a unit's file
    name must fit).

    >>> invalid_session_id("M_R003S01C01"), invalid_session_id("a::b")[:34]
    ('', "session id 'a::b' contains '::' (t")
    >>> invalid_session_id("a" + chr(0) + "b")[-48:], invalid_session_id("x" * 200)[-40:]
    ('contains a control character: rename the session', '(at most 180: it names files): rename it')
    """
    if "::" in session:
        return f"session id {session!r} contains '::' (the id separator): rename the session"
    if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in session):
        return f"session id {session!r} contains a control character: rename the session"
    if len(session.encode("utf-8")) > MAX_SESSION_ID_BYTES:
        return (
            f"session id {session[:40]!r}... is {len(session.encode('utf-8'))} bytes long "
            f"(at most {MAX_SESSION_ID_BYTES}: it names files): rename it"
        )
    if "/" in session or "\\" in session or session in (".", "..") or session.startswith(".."):
        return f"session id {session!r} contains a path part: rename the session"
    if not session.strip():
        return "empty session id: give the session a name"
    return ""


def short_reason(problem: str) -> str:
    """The kind of a problem, for counting: its text up to the first colon or parenthesis.

    >>> short_reason("bad segment: x.rttm:line 4: negative-length segment")
    'bad segment'
    """
    return problem.split(":")[0].split(" (")[0].strip()[:60]


@dataclass(frozen=True)
class IngestSettings:
    """``ingest`` config: end tolerance (s), strictness about zero-length segments."""

    end_tolerance: float = 0.5
    strict_segments: bool = False


def _check_annotation(session: SessionAnnotation, settings: IngestSettings) -> None:
    problems = list(session.problems)
    if settings.strict_segments:
        problems += [f"{z} (ingest.strict_segments is set)" for z in session.zero_length]
    if problems:
        more = f" (+{len(problems) - 1} more)" if len(problems) > 1 else ""
        raise InputError(session.file, f"bad segment: {problems[0]}{more}")
    if not session.speech_segments:
        raise InputError(
            session.file, f"empty annotation: session {session.session_id!r} has no speech segment"
        )


def _audio_path(spec: SourceSpec, session: SessionAnnotation) -> str:
    audio_path = spec.audio_path(session.session_id) or session.audio_path or ""
    if not audio_path:
        hints = [note for note in session.notes if "audio source of type" in note]
        raise InputError(
            session.file,
            "no audio path" + (f": {hints[0]}" if hints else ""),
            fix="set `audio` in the dataset sheet",
        )
    return audio_path


def _labels(
    session: SessionAnnotation, transcript: tuple[Segment, ...]
) -> tuple[SessionAnnotation, tuple[Segment, ...], list[str]]:
    """The annotation and transcript with speaker labels as people read them, and notes."""
    labelled, notes = normalise_speakers(session.segments, "annotation")
    normalised, more = normalise_speakers(transcript, "transcript")
    return replace(session, segments=tuple(labelled)), tuple(normalised), notes + more


def _ingest_session(
    spec: SourceSpec,
    session: SessionAnnotation,
    transcript: tuple[Segment, ...],
    uem: UemTable | None,
    settings: IngestSettings,
    transcript_notes: list[str] | tuple[str, ...] = (),
) -> IngestedRecording:
    session, transcript, label_notes = _labels(session, transcript)
    _check_annotation(session, settings)
    audio_path = _audio_path(spec, session)
    info = probe_audio(audio_path)
    if spec.channel >= info.channels:
        raise InputError(
            audio_path,
            f"channel {spec.channel} configured, file has {info.channels} channel(s)",
            fix="set `channel` (0-based) in the dataset sheet",
        )
    notes = [
        *session.notes,
        *(f"{z}: kept for its words, no speech time" for z in session.zero_length),
        *transcript_notes,
        *label_notes,
    ]
    renames, speaker_notes = match_transcript_speakers(session.segments, transcript)
    transcript = renamed(transcript, renames)
    notes += speaker_notes
    segments, clipped = clip_to_duration(
        session.segments, info.duration, settings.end_tolerance, audio_path
    )
    notes += clipped + _length_notes(transcript, session.duration, info.duration, settings)
    spans, uem_notes = scored_region(session, uem, info.duration)
    notes += uem_notes
    duration = scored_length(spans)
    if uem is not None:
        segments, cropped = crop_to_spans(segments, spans)
        transcript, _ = crop_to_spans(transcript, spans)
        notes += cropped
        if not any(s.end_time > s.start_time for s in segments):
            raise InputError(
                uem.files.get(session.session_id, session.file),
                f"no speech of session {session.session_id!r} inside its UEM spans "
                f"({describe_spans(spans)}); the annotation is {session.file}",
                fix="check that the UEM and the annotation belong together",
            )
    recording = Recording(
        recording_id=recording_id(spec.name, session.session_id),
        source_dataset=spec.name,
        session_id=session.session_id,
        audio_path=audio_path,
        duration_seconds=duration,
        sample_rate=info.sample_rate,
        num_channels=info.channels,
        channel=spec.channel,
        language=spec.language,
        scenario=spec.scenario,
        recording_device=spec.device,
        annotation_file=session.file,
    )
    return IngestedRecording(recording, segments, transcript, tuple(notes), spans)


def _length_notes(
    transcript: tuple[Segment, ...],
    stated: float | None,
    audio_end: float,
    settings: IngestSettings,
) -> list[str]:
    """What disagrees with the audio's length without rejecting: late transcript lines, and a
    manifest duration (lhotse) that is not the file's."""
    notes = []
    if late := sum(1 for w in transcript if w.end_time > audio_end + settings.end_tolerance):
        notes.append(
            f"transcript: {late} line(s) end after the audio's {audio_end:.3f} s "
            "(kept for their words)"
        )
    if stated is not None and abs(stated - audio_end) > 0.1:
        notes.append(
            f"the manifest says {stated:.3f} s, the audio file holds {audio_end:.3f} s "
            "(the file's length is used)"
        )
    return notes


def _check_source_files(
    spec: SourceSpec,
    audio: dict[str, str],
    annotated: set[str],
    result: IngestResult,
    unread: list[InputError],
) -> None:
    """Audio files (``audio``: session -> path) without an annotation are rejected by name (with
    the annotation files that could not be read, where their sessions may be); a transcripts
    glob that matches nothing is a warning."""
    if spec.transcripts and not expand_glob(spec.transcripts):
        result.warnings.append(
            f"source {spec.name}: no transcript file matches {spec.transcripts!r} "
            "(fix `transcripts` in the dataset sheet): the utterances have no words"
        )
    unreadable = "; ".join(f"{e.path}: {e.problem}" for e in unread)
    for session, path in sorted(audio.items()):
        if session not in annotated:
            reason = f"{path}: audio without an annotation (no session {session!r} in {spec.annotations!r})"
            kind = "audio without annotation"
            if unreadable:
                reason += f"; annotation files that could not be read: {unreadable}"
                kind = "annotation unreadable"
            result.reject(recording_id(spec.name, session), spec.name, path, reason, kind)


def _check_transcript(transcripts: Transcripts, session_id: str) -> None:
    """InputError when the session's transcript file could not be read (its words are missing)."""
    if problems := transcripts.problems.get(session_id):
        first = problems[0]
        raise InputError(
            first.path,
            f"transcript unreadable, the session's words would be missing: {first.problem}",
            where=first.where,
            fix=first.fix or "fix the transcript file, or remove `transcripts` for this source",
        )
    if transcripts.unnamed and session_id not in transcripts.words:
        first = transcripts.unnamed[0]
        raise InputError(
            first.path,
            "a transcript file of this source cannot be read and names no session "
            f"({first.problem}); this session has no words from any other, so its words may be "
            "in it: rejected rather than scored against nothing",
            where=first.where,
            fix="fix or replace the transcript file (a damaged .gz: download it again)",
        )


def ingest_source(spec: SourceSpec, settings: IngestSettings | None = None) -> IngestResult:
    """Every session of a source: validated recordings, or rejections with reasons."""
    settings = settings or IngestSettings()
    result = IngestResult()
    sessions, transcripts, file_errors = read_source_annotations(spec)
    result.warnings += transcripts.warnings
    result.warnings += [
        f"{path}: its name holds {{ }} < or >, which Snakemake reads as a wildcard: ingested, "
        "but not an input of the ingest rule, so editing it alone does not re-run this source "
        "(rename it, or run with --forcerun ingest)"
        for path in spec.unwatched_files()
    ]
    uem = read_uem_spans(spec.uem, spec.encoding or None) if spec.uem else None
    occurrences: dict[str, list[SessionAnnotation]] = defaultdict(list)
    kept = spec.kept_sessions()
    for session in sessions:
        if kept is None or session.session_id in kept:
            occurrences[session.session_id].append(session)
        else:
            result.left_out += 1
    _reject_unread_files(spec, set(occurrences), file_errors, result)
    if spec.uem and not expand_glob(spec.uem):
        result.warnings.append(
            f"source {spec.name}: no UEM file matches {spec.uem!r} (fix `uem` in the dataset "
            "sheet): every session is scored on its whole audio"
        )
    if unknown := sorted(set(transcripts.words) - set(occurrences)):
        result.warnings.append(
            f"source {spec.name}: transcripts of {len(unknown)} session(s) no annotation names, "
            f"not used: {', '.join(unknown[:5])}{' ...' if len(unknown) > 5 else ''}"
        )
    for session_id in sorted(occurrences):
        _ingest_occurrences(spec, occurrences[session_id], transcripts, uem, settings, result)
    return result


def _reject_unread_files(
    spec: SourceSpec, annotated: set[str], file_errors: list[InputError], result: IngestResult
) -> None:
    """Files that yield no session, and audio files without an annotation.

    The audio files of the sessions an unread file may hold are rejected with
    its message; only a file whose sessions no audio file names gets a row of
    its own, named after the file (one session a file), so no session is
    counted twice.
    """
    named = {session_from_filename(e.path): e for e in file_errors}
    audio = spec.audio_sessions()  # globbed once for the source
    unread = [e for n, e in named.items() if n not in audio]
    _check_source_files(spec, audio, annotated | set(named), result, unread)
    for name, file_error in sorted(named.items()):
        if name in annotated:  # the session is read from another file: say what was not read
            result.warnings.append(f"{file_error} (session {name!r} is read from another file)")
            continue
        if name not in audio and set(audio) - annotated - set(named):
            continue  # its sessions are the audio rows, which name this file
        result.reject(
            recording_id(spec.name, name),
            spec.name,
            file_error.path,
            str(file_error),
            short_reason(file_error.problem),
        )


def _ingest_occurrences(
    spec: SourceSpec,
    found: list[SessionAnnotation],
    transcripts: Transcripts,
    uem: UemTable | None,
    settings: IngestSettings,
    result: IngestResult,
) -> None:
    """One session id of the source (each of its occurrences): a recording or a rejection."""
    session_id = found[0].session_id
    rec_id = recording_id(spec.name, session_id)
    if bad_id := invalid_session_id(session_id):
        result.reject(rec_id, spec.name, found[0].file, bad_id, "invalid session id")
        return
    if len(found) > 1:
        files = ", ".join(sorted({s.file for s in found}))
        reason = (
            f"session id {session_id!r} appears {len(found)} times in source {spec.name!r} "
            f"({files}); keep one annotation per session"
        )
        result.reject(rec_id, spec.name, found[0].file, reason, "duplicate session id")
        return
    try:
        _check_transcript(transcripts, session_id)
        words, notes = transcripts.words.get(session_id, ()), transcripts.notes.get(session_id, [])
        result.recordings.append(_ingest_session(spec, found[0], words, uem, settings, notes))
    except InputError as error:
        result.reject(rec_id, spec.name, error.path, str(error), short_reason(error.problem))
