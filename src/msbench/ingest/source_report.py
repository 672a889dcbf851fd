"""What ingest says about a source beyond its recordings: files it could not list or read,
listed sessions it never found, and a source that could not be ingested at all.

None of these stops a run. A source that fails as a whole (its sessions list
is a folder, a bug, a memory error) becomes one rejection row naming the
source and the reason, so every other source still reaches the benchmark and
the run summary names this one.
"""

from __future__ import annotations

import sys
import traceback

from msbench.errors import InputError
from msbench.ingest.listing import listing_problems
from msbench.ingest.sheet import SourceSpec, expand_glob
from msbench.ingest.source import IngestResult, IngestSettings, ingest_source
from msbench.records import recording_id

#: The recording id of a rejection row that stands for a whole source.
WHOLE_SOURCE = "*"


def ingest_whole_source(spec: SourceSpec, settings: IngestSettings) -> IngestResult:
    """:func:`ingest_source`, plus what the listing could not see and the listed sessions never
    found; a failure of the whole source is one rejection row (the traceback to stderr)."""
    try:
        result = ingest_source(spec, settings)
    except Exception as error:  # noqa: BLE001 - the source fails, never the run
        traceback.print_exc(file=sys.stderr)
        result = IngestResult()
        reason = str(error) if isinstance(error, InputError) else f"{type(error).__name__}: {error}"
        result.reject(
            recording_id(spec.name, WHOLE_SOURCE),
            spec.name,
            spec.annotations,
            f"source {spec.name!r} could not be ingested ({reason}); the run goes on without it",
            "source failed",
        )
        return result
    patterns = [spec.annotations, spec.transcripts, spec.uem, spec.audio.replace("{session}", "*")]
    result.warnings += listing_problems(patterns)
    _reject_listed_but_missing(spec, result)
    return result


def _reject_listed_but_missing(spec: SourceSpec, result: IngestResult) -> None:
    """A session the ``sessions`` list names that neither an annotation nor an audio file holds."""
    kept = spec.kept_sessions()
    if kept is None:
        return
    found = {r.recording.session_id for r in result.recordings}
    found |= {r.recording_id.split("::", 1)[-1] for r in result.rejections}
    for session in sorted(kept - found):
        result.reject(
            recording_id(spec.name, session),
            spec.name,
            spec.sessions,
            f"{spec.sessions}: session {session!r} is listed, but no annotation file "
            f"({spec.annotations!r}) holds it (check its spelling, or the annotations glob)",
            "listed session not found",
        )


def annotation_encodings(spec: SourceSpec) -> dict[str, str]:
    """Each annotation file of the source -> the codec it was decoded with (or why not).

    A report, never a reason to stop: a file that cannot be read here (a folder,
    a symlink loop, no permission, a damaged .gz) is already a rejection of the
    sessions it may hold; here it is said as ``unreadable: <why>``.
    """
    from msbench.textio import encoding_used

    out = {}
    try:
        files = spec.annotation_files() + expand_glob(spec.transcripts) + expand_glob(spec.uem)
    except OSError as error:
        return {spec.annotations: f"unreadable: {error.strerror or error}"}
    for path in sorted(set(files)):
        try:
            out[path] = encoding_used(path, spec.encoding or None)
        except OSError as error:
            out[path] = f"unreadable: {error.strerror or error}"
        except InputError as error:
            out[path] = f"unreadable: {error.problem}"
        except (LookupError, ValueError) as error:
            out[path] = f"unreadable: {error}"
    return out
