"""Listing a source's files: a glob that reads each real file once and says what it could not see.

``glob.glob(recursive=True)`` skips a folder it may not list without a word,
and follows a symbolic link that points back up the tree until the system
refuses (``a/loop/loop/.../x.rttm``), so one file is found many times and
every session in it looks duplicated. :func:`list_files` keeps one path per
real file (the shortest, then the first in order) and returns what it left
out; :func:`listing_problems` adds the folders that could not be listed, for
the ingest log (a walk of the tree, done once per ingest, never per glob).
"""

from __future__ import annotations

import glob
import os
from pathlib import Path


def _fixed_folder(pattern: str) -> str:
    """The folder a glob starts in (before its first glob character).

    >>> _fixed_folder("corpus/**/x*.rttm"), _fixed_folder("*.rttm")
    ('corpus', '.')
    """
    parts = []
    for part in Path(pattern).parts[:-1]:
        if glob.has_magic(part):
            break
        parts.append(part)
    return str(Path(*parts)) if parts else "."


def _unlistable_folders(pattern: str) -> list[str]:
    """Folders under the glob's fixed folder that cannot be listed (``**`` globs walk them all)."""
    root = _fixed_folder(pattern)
    problems: list[str] = []
    if not os.path.isdir(root):
        return problems

    def note(error: OSError) -> None:
        problems.append(
            f"{error.filename}: cannot list this folder ({error.strerror}): files under it are "
            "not read (make it readable, or narrow the glob in the dataset sheet)"
        )

    if "**" in pattern:
        for _ in os.walk(root, onerror=note, followlinks=False):
            pass
    else:
        try:
            os.listdir(root)
        except OSError as error:
            note(error)
    return problems


def list_files(pattern: str) -> tuple[list[str], list[str]]:
    """Sorted matches of ``pattern`` (``**`` allowed), each real file once, and the paths left
    out as a second way to one file. (No folder walk: :func:`listing_problems` does it.)"""
    if not pattern:
        return [], []
    problems: list[str] = []
    first_path: dict[str, str] = {}
    others: dict[str, list[str]] = {}
    for path in sorted(glob.glob(pattern, recursive=True), key=lambda p: (p.count(os.sep), p)):
        try:
            real = os.path.realpath(path, strict=True)
        except OSError:
            real = path  # a loop or a dangling link: read (and rejected) under its own name
        if real in first_path:
            others.setdefault(first_path[real], []).append(path)
            continue
        first_path[real] = path
    problems += [
        f"{path}: also reached as {len(again)} other path(s) through symbolic links "
        f"({again[0]}{', ...' if len(again) > 1 else ''}): read once, as {path}"
        for path, again in sorted(others.items())
    ]
    return sorted(first_path.values()), problems


def listing_problems(patterns: list[str]) -> list[str]:
    """For each of a source's globs, the folders that could not be listed and the paths left
    out as second ways to one file, each said once."""
    seen: dict[str, None] = {}
    for pattern in patterns:
        if not pattern:
            continue
        for problem in _unlistable_folders(pattern) + list_files(pattern)[1]:
            seen.setdefault(problem)
    return list(seen)
