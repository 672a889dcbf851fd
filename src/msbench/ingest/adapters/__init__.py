"""A source's annotation files read through :mod:`msbench.io` (one module per format there; this
package keeps what a source's layout needs: which files, which transcripts, which UEMs, and what
to do with a file that cannot be read). Every reader returns
:class:`msbench.records.SessionAnnotation` s.

=============  ==============================================  ===================
adapter        files                                           session id from
=============  ==============================================  ===================
``rttm``       ``*.rttm`` (+ UEM, + STM or SegLST transcripts)  RTTM file field
``stm``        ``*.stm`` speaker-attributed references (NIST)    STM file field
``textgrid``   ``<session>.TextGrid``, one tier per speaker     file name
``chime``      CHiME-5/6/7/8 / DiPCo ``<session>.json``         ``session_id``
``notsofar``   NOTSOFAR-1 ``<meeting>/gt_transcription.json``   meeting folder
``seglst``     meeteval SegLST ``*.json``                       ``session_id``
``lhotse``     supervisions (+ recordings) ``.jsonl[.gz]``      ``recording_id``
``magicdata``  MagicData-RAMC ``TXT/<session>.txt``              file name
=============  ==============================================  ===================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from msbench.errors import InputError
from msbench.ingest.sheet import SourceSpec, expand_glob
from msbench.io.lhotse_manifest import read_lhotse
from msbench.io.registry import ANNOTATION_FORMATS, REGISTRY, closest_formats
from msbench.io.seglst import read_seglst
from msbench.io.stm import read_stm
from msbench.io.uem import UemTable, read_uem_files
from msbench.records import Segment, SessionAnnotation

Reader = Callable[..., list[SessionAnnotation]]

#: Each annotation format's reader, as the registry names it (lhotse reads two manifests).
READERS: dict[str, Reader] = {
    f.name: f.annotations for f in REGISTRY if f.annotations is not None and f.name != "lhotse"
}
FORMATS = ANNOTATION_FORMATS  # the registry's (a test checks READERS + lhotse name exactly these)


def detect_format(path: str | Path) -> str:
    """Guess the adapter from the file name (and, for JSON, the time field type)."""
    name = str(path).lower()
    if name.endswith(".rttm"):
        return "rttm"
    if name.endswith(".stm"):
        return "stm"
    if name.endswith("gt_transcription.json"):
        return "notsofar"
    if name.endswith(".textgrid"):
        return "textgrid"
    if name.endswith((".jsonl", ".jsonl.gz")):
        return "lhotse"
    if name.endswith(".json"):
        from msbench.textio import read_json

        entries = read_json(path)
        first = entries[0] if isinstance(entries, list) and entries else {}
        start = first.get("start_time") if isinstance(first, dict) else None
        return "seglst" if isinstance(start, (int, float)) else "chime"
    raise InputError(
        path, "cannot tell the annotation format", fix=f"pass --format, one of {', '.join(FORMATS)}"
    )


def read_annotation_file(
    path: str | Path, fmt: str | None = None, encoding: str | None = None
) -> list[SessionAnnotation]:
    fmt = fmt or detect_format(path)
    if fmt == "lhotse":
        return read_lhotse(path, encoding)
    if fmt not in READERS:
        raise InputError(path, f"unknown format {fmt!r}", fix=closest_formats(fmt, FORMATS))
    return READERS[fmt](path, encoding)


@dataclass
class Transcripts:
    """Words per session from a source's transcript files, and what could not be read.

    Each file is read on its own: an unreadable file rejects only the sessions
    it names (``problems``; when its session names cannot be read either, a
    ``warnings`` line says so), a bad line is a note of its session (its words
    are left out, said), and every other file's words are kept.
    """

    words: dict[str, tuple[Segment, ...]] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)
    problems: dict[str, list[InputError]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    #: files that could not be read and whose sessions cannot be named (a damaged ``.gz``): a
    #: session left without any word may have had its words there
    unnamed: list[InputError] = field(default_factory=list)


def read_transcripts(pattern: str, encoding: str | None) -> Transcripts:
    """STM (``.stm``) or SegLST (``.json``) files -> words segments per session."""
    found = Transcripts()
    for path in expand_glob(pattern):
        stm = path.lower().endswith(".stm")
        try:
            sessions = (read_stm if stm else read_seglst)(path, encoding)
        except InputError as error:
            named = sessions_of_undecodable(path, "stm") if stm else []
            for session_id in named:
                found.problems.setdefault(session_id, []).append(error)
            if not named:
                found.unnamed.append(error)
                found.warnings.append(
                    f"{error}: its sessions cannot be named, so their words are missing"
                )
            continue
        for session in sessions:
            notes = found.notes.setdefault(session.session_id, [])
            notes += [f"transcript line left out: {p}" for p in session.problems]
            notes += [f"transcript: {n}" for n in session.notes]
            found.words[session.session_id] = (
                found.words.get(session.session_id, ()) + session.segments
            )
    return found


def read_source_annotations(
    spec: SourceSpec,
) -> tuple[list[SessionAnnotation], Transcripts, list[InputError]]:
    """All sessions of a source, their transcripts, and the files that could not be read."""
    encoding = spec.encoding or None
    sessions: list[SessionAnnotation] = []
    errors: list[InputError] = []
    files = spec.annotation_files()
    if not files:
        errors.append(
            InputError(
                spec.annotations,
                "no annotation file matches this pattern",
                fix=f"fix `annotations` of source {spec.name!r} in the dataset sheet",
            )
        )
    for path in files:
        try:
            if spec.adapter == "lhotse":
                found = read_lhotse(path, encoding, spec.recordings or None)
            else:
                found = READERS[spec.adapter](path, encoding)
        except InputError as error:
            held = (
                sessions_of_undecodable(path, spec.adapter) if "cannot decode" in str(error) else []
            )
            if not held:
                errors.append(error)
                continue
            found = [
                SessionAnnotation(name, str(path), (), problems=(str(error),)) for name in held
            ]
        if not found:
            errors.append(
                InputError(
                    path,
                    f"holds no session (empty, or not a {spec.adapter} file)",
                    fix=f"check the file, or the `adapter` of source {spec.name!r}",
                )
            )
        sessions.extend(found)
    transcripts = (
        read_transcripts(spec.transcripts, encoding) if spec.transcripts else Transcripts()
    )
    return sessions, transcripts, errors


def sessions_of_undecodable(path: str | Path, adapter: str) -> list[str]:
    """The sessions a multi-session file names, read past its undecodable bytes (RTTM, STM).

    The file is still rejected; this only lets each of its sessions be rejected by name.
    """
    column = {"rttm": 1, "stm": 0}.get(adapter)
    if column is None:
        return []
    text = Path(path).read_bytes().decode("utf-8", errors="replace")
    names = []
    for line in text.split("\n"):
        fields = line.split()
        if len(fields) > column and not line.lstrip().startswith((";;", "#")):
            if adapter == "rttm" and fields[0] != "SPEAKER":
                continue
            names.append(fields[column])
    return sorted(set(names))


def read_uem_spans(pattern: str, encoding: str | None = None) -> UemTable:
    """Every session's scored spans from the UEM files matching ``pattern`` (their union)."""
    return read_uem_files(expand_glob(pattern), encoding)
