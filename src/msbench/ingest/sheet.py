"""The dataset sheet (``config/datasets.tsv``): one row per source corpus.

Columns (tab-separated, header required; empty cells take the default):

==============  ================================================================
``name``        source name, used in recording ids ``<name>::<session>``
``adapter``     ``rttm`` | ``stm`` | ``textgrid`` | ``chime`` | ``notsofar`` |
                ``seglst`` | ``lhotse``
``annotations`` glob of annotation files (lhotse: supervisions manifest)
``audio``       audio path pattern with ``{session}`` (lhotse/CHiME: optional,
                lhotse takes the recording's own source)
``uem``         glob of UEM files: each session's scored span (crop, duration)
``transcripts`` glob of STM or SegLST files with the words (for RTTM)
``recordings``  lhotse only: recordings manifest
``language``    e.g. ``English``
``scenario``    e.g. ``Meeting``
``device``      recording device, free text (``recording_device`` in manifests)
``channel``     0-based channel of multi-channel audio (default 0)
``encoding``    text encoding of the annotations (default: detect UTF-8/16)
``sessions``    a file listing the sessions to keep (one a line)
``licence``     the corpus' licence (e.g. ``CC BY 4.0``), written into every export
``citation``    how to cite the corpus, written into every export
==============  ================================================================

Lines starting with ``#`` are comments. Relative paths are relative to the
working directory (the repository root when run by Snakemake). ``audio`` may
hold glob characters after ``{session}`` is filled in (AliMeeting's
``{session}_MS*.wav``): it must then match exactly one file.
"""

from __future__ import annotations

import csv
import glob
import os
import re
import unicodedata
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from msbench.config import validate_against
from msbench.errors import ConfigError, InputError
from msbench.textio import read_text, split_lines


@dataclass(frozen=True)
class SourceSpec:
    name: str
    adapter: str
    annotations: str
    audio: str = ""
    uem: str = ""
    transcripts: str = ""
    recordings: str = ""
    language: str = ""
    scenario: str = ""
    device: str = ""
    channel: int = 0
    encoding: str = ""
    sessions: str = ""
    licence: str = ""
    citation: str = ""

    def annotation_files(self) -> list[str]:
        return expand_glob(self.annotations)

    def kept_sessions(self) -> set[str] | None:
        """The sessions the ``sessions`` list names, or None (every session) without one.

        A line's trailing ``.wav``, ``.flac`` or ``.txt`` is dropped, so a
        corpus' own split list of file names works as it is. ``#`` starts a
        comment at the start of a line or after a space; inside a name it is
        part of the name.
        """
        if not self.sessions:
            return None
        from msbench.textio import read_text, split_lines

        kept = set()
        for line in split_lines(read_text(self.sessions)):
            name = re.split(r"(?:^|\s)#", line, maxsplit=1)[0].strip()  # a comment; AMI#1 is a name
            for suffix in (".wav", ".flac", ".txt"):
                name = name.removesuffix(suffix)
            if name:
                kept.add(name)
        return kept

    def source_files(self) -> list[str]:
        """The annotation files, the sessions list and the audio files of the source's sessions."""
        listed = [self.sessions] if self.sessions else []
        try:
            audio = sorted(self.audio_sessions().values())
        except (InputError, OSError):  # an unreadable sessions list: the ingest job names it
            audio = []
        return self.annotation_files() + listed + audio

    def watched_files(self) -> list[str]:
        """:meth:`source_files` a workflow can name as inputs (see :func:`unquotable`)."""
        return [path for path in self.source_files() if not unquotable(path)]

    def unwatched_files(self) -> list[str]:
        return [path for path in self.source_files() if unquotable(path)]

    line: int = 0  # line of the sheet, for messages

    def audio_path(self, session: str) -> str:
        """The audio file of a session: the pattern with ``{session}`` filled, globbed if needed."""
        if not self.audio:
            return ""
        path = self.audio.replace("{session}", session)
        if not glob.has_magic(path):
            return _as_on_disk(path)
        exact = self.audio_regex(session)
        forms = {path, *(unicodedata.normalize(f, path) for f in ("NFC", "NFD"))}
        found = {m for form in forms for m in glob.glob(form)}
        matches = sorted(m for m in found if exact.match(unicodedata.normalize("NFC", m)))
        if len(matches) > 1:
            raise InputError(
                path,
                f"audio pattern matches {len(matches)} files ({matches[0]}, ...)",
                fix="make `audio` in the dataset sheet match one file per session",
            )
        return matches[0] if matches else path

    def audio_regex(self, session: str | None = None) -> re.Pattern[str]:
        """The ``audio`` pattern as a regular expression, its ``*`` never crossing a folder.

        With ``session``, that session in every ``{session}`` place; without, a
        ``session`` group at the first place and the same text at the others.

        >>> spec = SourceSpec("c", "rttm", "x", audio="a/{session}/audio/{session}.A*.wav")
        >>> spec.audio_regex().match("a/ES2004a/audio/ES2004a.Array1-01.wav")["session"]
        'ES2004a'
        >>> spec.audio_regex().match("a/ES2004a/audio/ES2004b.Array1-01.wav") is None
        True
        >>> bool(spec.audio_regex("ES2004a").match("a/ES2004a/audio/ES2004a.A1.wav"))
        True
        """
        parts = [re.escape(p).replace(r"\*", "[^/]*") for p in self.audio.split("{session}")]
        first = "(?P<session>[^/]+?)" if session is None else re.escape(session)
        again = "(?P=session)" if session is None else re.escape(session)
        return re.compile(parts[0] + first + again.join(parts[1:]) + "$")

    def audio_sessions(self) -> dict[str, str]:
        """Every session that has an audio file matching the ``audio`` pattern (session -> path)."""
        if "{session}" not in self.audio:
            return {}
        pattern = self.audio_regex()
        found: dict[str, str] = {}
        kept = self.kept_sessions()
        for path in expand_glob(self.audio.replace("{session}", "*")):
            match = pattern.match(path)
            if match and (kept is None or match["session"] in kept):
                found.setdefault(match["session"], path)
        return found

    def root_folder(self) -> str:
        """The fixed folder that ``annotations`` starts with (before any glob character)."""
        parts = []
        for part in Path(self.annotations).parts[:-1]:
            if glob.has_magic(part):
                break
            parts.append(part)
        return str(Path(*parts)) if parts else "."


def _as_on_disk(path: str) -> str:
    """``path`` as the file system spells it: a session id in NFC (``Zoë``) finds the audio file
    a Mac wrote in NFD (``Zoe`` + combining diaeresis), and the other way round; else ``path``.

    >>> _as_on_disk("/no/such/file.wav")
    '/no/such/file.wav'
    """
    if os.path.exists(path):
        return path
    for form in ("NFC", "NFD"):
        other = unicodedata.normalize(form, path)
        if other != path and os.path.exists(other):
            return other
    return path


def unquotable(path: str) -> bool:
    """A file name Snakemake would read as a wildcard (``{...}``) or path variable (``<...>``).

    Such files are still ingested; they are only left out of the ingest rule's
    inputs (so editing one does not re-run its source on its own), and the
    ingest log names them.

    >>> unquotable("a/x{y}.rttm"), unquotable("a/x<y>.wav"), unquotable("a/b c.wav")
    (True, True, False)
    """
    return any(character in path for character in "{}<>")


def expand_glob(pattern: str) -> list[str]:
    """Sorted matches of a glob (``**`` allowed), each real file once; empty pattern -> [].

    What the listing could not see is said by :func:`msbench.ingest.listing.listing_problems`.
    """
    from msbench.ingest.listing import list_files

    return list_files(pattern)[0]


def _numbered_rows(text: str, path: str | Path) -> list[tuple[int, dict[str, str]]]:
    """Data rows with their line numbers; ``#`` comment lines and blank lines skipped."""
    lines = [(n, line) for n, line in enumerate(split_lines(text), start=1)]
    kept = [(n, line) for n, line in lines if line.strip() and not line.lstrip().startswith("#")]
    if not kept:
        return []
    reader = csv.DictReader([line for _, line in kept], delimiter="\t")
    header = [name.strip() for name in reader.fieldnames or ()]
    if repeated := sorted({name for name in header if name and header.count(name) > 1}):
        raise ConfigError(
            f"{path}:line {kept[0][0]}: column(s) {repeated} appear twice in the header; keep one of each"
        )
    return [(kept[k + 1][0], row) for k, row in enumerate(reader)]


def audio_pattern_problem(pattern: str) -> str:
    """Why an ``audio`` pattern cannot name one file per session ('' when it can).

    >>> audio_pattern_problem("audio/{session}.flac"), audio_pattern_problem("")
    ('', '')
    >>> audio_pattern_problem("audio/{session}*.flac")[:37]
    'a glob character touches {session}: a'
    >>> audio_pattern_problem("audio/all.flac")[:26]
    'names no {session}: every '
    """
    if not pattern:
        return ""
    if "{session}" not in pattern:
        return (
            "names no {session}: every session would get this same file; write the session's "
            "place in the file name as {session} (e.g. audio/{session}.wav)"
        )
    before, _, after = pattern.partition("{session}")
    if before[-1:] in "*?]" and before or after[:1] in ("*", "?", "["):
        return (
            "a glob character touches {session}: a session 's' would also take 's1.flac'; put "
            "a fixed character between them (e.g. {session}_*.flac or {session}.flac)"
        )
    return ""


def read_dataset_sheet(path: str | Path) -> list[SourceSpec]:
    text = read_text(path)
    known = {f.name for f in fields(SourceSpec)} - {"line"}
    specs = []
    for number, row in _numbered_rows(text, path):
        cleaned = {key.strip(): (value or "").strip() for key, value in row.items() if key}
        unknown = sorted(set(cleaned) - known)
        if unknown:
            hint = (
                " (the sheet is tab-separated: its header holds spaces where tabs belong)"
                if any(" " in key.strip() for key in unknown)
                else ""
            )
            raise ConfigError(
                f"{path}: unknown column(s) {unknown}{hint}; allowed: {sorted(known)}"
            )
        values: dict[str, Any] = {key: value for key, value in cleaned.items() if value != ""}
        if "channel" in values:
            try:
                values["channel"] = int(values["channel"])
            except ValueError as error:
                raise ConfigError(f"{path}:line {number}: channel must be an integer") from error
        validate_against("datasets.schema.yaml", values, f"{path}:line {number}")
        if problem := audio_pattern_problem(values.get("audio", "")):
            raise ConfigError(f"{path}:line {number}: audio {values['audio']!r}: {problem}")
        specs.append(SourceSpec(**values, line=number))
    for spec in specs:
        if "__" in spec.name:
            raise ConfigError(
                f"{path}:line {spec.line}: source name {spec.name!r} holds '__', which unit and "
                f"file names use to join source and session ({spec.name}::s1 and "
                f"{spec.name.split('__')[0]}::{spec.name.split('__', 1)[1]}__s1 would both be "
                f"{spec.name}__s1); rename the source without '__'"
            )
    names = [spec.name for spec in specs]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:
        raise ConfigError(f"{path}: source name(s) listed twice: {duplicates}")
    if not specs:
        raise ConfigError(f"{path}: the dataset sheet lists no source")
    return specs


def check_source_folders(specs: list[SourceSpec], sheet: str | Path) -> None:
    """Stop at once, naming the sheet line, when a source's annotation folder does not exist."""
    for spec in specs:
        folder = spec.root_folder()
        if not Path(folder).is_dir():
            raise ConfigError(
                f"{sheet}:line {spec.line} (source {spec.name!r}): folder {folder} does not "
                "exist; put the corpus there, or edit the path in this line of the sheet "
                "(the demo runs with: scripts/run_demo.sh)"
            )


def find_source(specs: list[SourceSpec], name: str) -> SourceSpec:
    for spec in specs:
        if spec.name == name:
            return spec
    raise ConfigError(f"source {name!r} is not in the dataset sheet ({[s.name for s in specs]})")
