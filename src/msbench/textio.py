"""Reading annotation text in the encodings real corpora use, and writing outputs atomically.

Decoding order for annotation files (AISHELL-4 and AliMeeting TextGrids come as
UTF-8 or UTF-16, with or without a byte-order mark):

1. a byte-order mark: UTF-8-SIG, UTF-16 LE/BE, UTF-32 LE/BE;
2. UTF-16 without a BOM, recognised by NUL bytes in every other position;
3. strict UTF-8;
4. only where UTF-8 fails, the legacy ``encoding`` of the dataset sheet (``gbk``),
   so that a source holding both UTF-8 and GBK files decodes each correctly
   (applied to every file, GBK garbles the UTF-8 ones: ``MÉO069`` -> ``M脡O069``).

Anything else is an unknown encoding and raises :class:`InputError` naming the
first undecodable byte and its line, never a silent replacement.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import gzip
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from msbench.errors import InputError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)

_ENCODING_FIX = (
    "re-save it as UTF-8, or name its encoding: `--encoding latin-1` (msbench score), or "
    "`encoding` for its source in the dataset sheet"
)


def _bomless_utf16(data: bytes) -> str | None:
    """Return 'utf-16-le'/'utf-16-be' when NULs sit in every other byte of an ASCII-heavy text."""
    sample = data[:4096]
    if len(sample) < 4 or len(sample) % 2:
        return None
    even_nul = sample[0::2].count(0) / (len(sample) // 2)
    odd_nul = sample[1::2].count(0) / (len(sample) // 2)
    if odd_nul > 0.3 and even_nul < 0.05:
        return "utf-16-le"
    if even_nul > 0.3 and odd_nul < 0.05:
        return "utf-16-be"
    return None


def _choose(data: bytes, encoding: str | None) -> tuple[bytes, str]:
    """The body (without BOM) and the codec the decoding order picks for it."""
    body, chosen = data, ""
    for bom, name in _BOMS:
        if data.startswith(bom):
            chosen, body = name, data[len(bom) :]
            break
    chosen = chosen or _bomless_utf16(data) or "utf-8"
    if encoding and chosen == "utf-8":
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            chosen = encoding  # the legacy encoding, only where UTF-8 fails
    return body, chosen


def encoding_used(path: str | Path, encoding: str | None = None) -> str:
    """The codec :func:`read_text` decodes a file with (``utf-8``, ``utf-16-le``, ``gbk``, ...).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile(delete=False) as f:
    ...     _ = f.write("我们".encode("gbk"))
    >>> encoding_used(f.name, "gbk"), encoding_used(f.name); os.unlink(f.name)
    ('gbk', 'utf-8')
    """
    return _choose(_read_bytes(path), encoding)[1]


def decode_text(data: bytes, path: str | Path, encoding: str | None = None) -> str:
    """Decode annotation bytes following the module's decoding order."""
    body, chosen = _choose(data, encoding)
    try:
        return body.decode(chosen)
    except LookupError as error:
        raise InputError(
            path, f"unknown encoding {encoding!r}", fix="use a Python codec name such as gbk"
        ) from error
    except UnicodeDecodeError as error:
        line = body[: error.start].count(b"\n") + 1
        raise InputError(
            path,
            f"cannot decode byte 0x{body[error.start]:02x} at offset {error.start} as {chosen}"
            " (unknown text encoding)",
            where=f"line {line}",
            fix=_ENCODING_FIX,
        ) from error


def _read_bytes(path: str | Path) -> bytes:
    """A file's bytes, ``.gz`` decompressed; InputError for an unreadable or damaged file.

    A truncated or corrupt gzip file (``EOFError``, ``BadGzipFile``, a zlib
    error) is an input error of that file, so only its source's session or
    file is rejected, never the run.
    """
    import zlib

    try:
        raw = Path(path).read_bytes()
    except OSError as error:
        raise InputError(
            path, f"cannot read file: {error.strerror}", fix="check that it exists and is readable"
        ) from error
    if not str(path).endswith(".gz"):
        return raw
    try:
        return gzip.decompress(raw)
    except (EOFError, gzip.BadGzipFile, zlib.error) as error:
        raise InputError(
            path,
            f"damaged gzip file ({type(error).__name__}: {error})",
            fix="re-download or re-compress it (gzip -t checks a file)",
        ) from error


def read_text(path: str | Path, encoding: str | None = None) -> str:
    """Read and decode a text file (``.gz`` is decompressed first)."""
    return decode_text(_read_bytes(path), path, encoding)


def read_json(path: str | Path, encoding: str | None = None) -> Any:
    text = read_text(path, encoding)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            path,
            f"invalid JSON: {error.msg}",
            where=f"line {error.lineno}",
            fix="fix the JSON syntax",
        ) from error


#: Characters ``str.splitlines`` breaks lines at, besides ``\n`` and ``\r``: written escaped.
LINE_BREAKERS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


def json_line(value: Any) -> str:
    """One JSON line: non-ASCII kept readable, but the characters that other readers take
    for a line break (U+2028, U+2029, U+0085) escaped, so no reader splits a record.

    >>> json_line({"w": "a\u2028b\x85"})
    '{"w": "a\\\\u2028b\\\\u0085"}'
    """
    text = json.dumps(value, ensure_ascii=False)
    for raw, escaped in LINE_BREAKERS.items():
        text = text.replace(raw, escaped)
    return text


def split_lines(text: str) -> list[str]:
    """Lines at ``\n``, ``\r\n`` or ``\r`` only, as ``str.splitlines`` would give them but
    never at the characters it also breaks at inside a text (U+2028, U+2029, U+0085,
    form feed, ...), which a transcript word may hold.

    >>> split_lines("a\u2028b\\r\\nc\\n"), "a\u2028b".splitlines()
    (['a\u2028b', 'c'], ['a', 'b'])
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def written_record_path(path: str | Path) -> Path:
    """Where a table writer records what it wrote (``.NAME.written`` beside ``NAME``)."""
    target = Path(path)
    return target.with_name(f".{target.name}.written")


def _record_of(text: str) -> dict[str, Any]:
    import hashlib

    return {"lines": text.count("\n"), "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}


def write_recorded(path: str | Path, text: str) -> None:
    """:func:`write_atomic`, then record the line count and checksum beside the file, so a
    later reader notices a line removed by hand or a file cut short (:func:`read_checked`)."""
    write_atomic(path, text)
    record = json.dumps(_record_of(text), sort_keys=True) + "\n"
    write_atomic(written_record_path(path), record)


def read_checked(path: str | Path) -> str:
    """A file's text; when its writer recorded what it wrote, the text must still be that.

    A manifest edited, cut short or half-copied since it was written would make
    recordings vanish downstream without a trace; it is named instead, with the fix.
    """
    text = read_text(path)
    record_path = written_record_path(path)
    if not record_path.is_file():
        return text
    try:
        recorded = json.loads(record_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return text
    found = _record_of(text)
    if found != recorded:
        raise InputError(
            path,
            f"changed since msbench wrote it ({found['lines']} lines, {recorded.get('lines')} "
            "written; checksum differs): edited by hand, cut short or half-copied",
            fix="delete it (and its stage reruns), or rerun with --forcerun on the stage that "
            "writes it; to use an edited copy as your own input, save it under another name",
        )
    return text


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """The records of a JSON Lines file, split at ``\n`` only (``\r\n`` too); checked against
    its writer's record when there is one (:func:`read_checked`)."""
    for number, line in enumerate(split_lines(read_checked(path)), start=1):
        if line.strip():
            try:
                yield json.loads(line)
            except json.JSONDecodeError as error:
                raise InputError(
                    path, f"invalid JSON: {error.msg}", where=f"line {number}"
                ) from error


_IN_THE_WAY = "move or delete that file, or choose another output folder"


def make_folder(folder: str | Path) -> None:
    """Create an output folder (and its parents); a file in the way is named, not a traceback."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as error:
        blocking = next(
            (p for p in [Path(folder), *Path(folder).parents] if p.exists() and not p.is_dir()),
            Path(folder),
        )
        raise InputError(
            blocking, f"is a file where msbench writes a folder ({folder})", fix=_IN_THE_WAY
        ) from error
    except OSError as error:
        raise InputError(
            folder, f"cannot create the output folder: {error.strerror}", fix="check permissions"
        ) from error


@functools.cache
def _umask() -> int:
    """The process's umask, read once (reading it means setting it: never per write)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8, ``\\n`` newlines) so readers never see a half-written file."""
    target = Path(path)
    make_folder(target.parent)
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
        os.chmod(temporary, 0o666 & ~_umask())  # as open() would make it, not mkstemp's 0600
        written_record_path(target).unlink(missing_ok=True)  # a new text has no record yet
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def dumps_jsonl(rows: Iterable[Mapping[str, Any]]) -> str:
    """JSON Lines with stable key order as given, non-ASCII kept readable."""
    return "".join(json_line(row) + "\n" for row in rows)


def write_jsonl(path: str | Path, rows: Iterable[dict[str, Any]]) -> None:
    write_recorded(path, dumps_jsonl(rows))


def write_json(path: str | Path, value: Any) -> None:
    write_atomic(path, json.dumps(value, ensure_ascii=False, indent=2) + "\n")


@contextlib.contextmanager
def atomic_folder(
    out_dir: Path, written_by: str = "msbench", force: bool = False, option: str | None = "--out"
) -> Iterator[Path]:
    """A temporary sibling folder to fill; it replaces ``out_dir`` whole on success, is removed on error.

    The folder is world-readable (0755): outputs such as the review site are
    meant to be served and copied. The old ``out_dir`` is moved aside first,
    so a reader sees the old folder or the new one, never half of one. What
    ``out_dir`` holds that msbench did not write is refused first (``force``:
    deleted, named; ``option`` None: a subfolder msbench names itself, replaced;
    :mod:`msbench.output_folders`); the new folder is marked.
    """
    import shutil
    import tempfile

    from msbench.output_folders import claim_folder, write_marker

    make_folder(out_dir.parent)
    # claim_folder passes msbench's own subfolders (option None); a file there is still refused
    if option is None and out_dir.exists() and not out_dir.is_dir():
        raise InputError(out_dir, "is a file where msbench writes a folder", fix=_IN_THE_WAY)
    claim_folder(out_dir, option, force)
    folder = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.", dir=out_dir.parent))
    folder.chmod(0o755)
    try:
        yield folder
        write_marker(folder, written_by)
        old = out_dir.with_name(f".{out_dir.name}.old")
        shutil.rmtree(old, ignore_errors=True)
        if out_dir.exists():
            out_dir.rename(old)
        folder.rename(out_dir)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
