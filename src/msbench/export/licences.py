"""Whose audio an export may pass on: an allow-list of licences known to permit it.

A unit's FLAC is a derivative of the corpus' audio, and an export hands it to every later
user; so audio is exported only when the source's licence (the dataset sheet's ``licence``
column) is one of :data:`REDISTRIBUTABLE`, SPDX identifiers of licences that permit
redistribution with attribution (share-alike terms included: the export keeps the licence
beside every row). Everything else is withheld unless ``--include-restricted-audio``:
non-commercial or no-derivatives terms, an LDC or other user agreement, "research use
only", proprietary terms, a sheet that says "check ... before sharing", an empty cell, and
any spelling this list does not know. Common spellings are read by :func:`spdx_of`
("CC BY 4.0", "Apache License 2.0", "MIT (pyannote-audio sample)"); the ledger of every export
says, per source, which rule applied.

The whole text counts, parentheses included: a remark that restricts use
(:data:`RESTRICTING`: "non-commercial use only", "research purposes", "except ...", "LDC",
"no redistribution", ...) keeps the audio out whatever licence it qualifies
(:func:`restricting_remark`); only a remark that restricts nothing ("pyannote-audio sample",
"the corpus' own notice") is read past.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

REDISTRIBUTABLE = frozenset(
    {
        "CC0-1.0",
        "CC-BY-2.0",
        "CC-BY-2.5",
        "CC-BY-3.0",
        "CC-BY-4.0",
        "CC-BY-SA-2.0",
        "CC-BY-SA-2.5",
        "CC-BY-SA-3.0",
        "CC-BY-SA-4.0",
        "MIT",
        "APACHE-2.0",
        "BSD-2-CLAUSE",
        "BSD-3-CLAUSE",
        "CDLA-PERMISSIVE-1.0",
        "CDLA-PERMISSIVE-2.0",
        "ODC-BY-1.0",
        "PDDL-1.0",
        "UNLICENSE",
    }
)
_NAMES = (
    (r"CREATIVE COMMONS ATTRIBUTION[- ]SHARE ?ALIKE", "CC BY-SA"),
    (r"CREATIVE COMMONS ATTRIBUTION", "CC BY"),
    (r"CREATIVE COMMONS ZERO|CC ZERO", "CC0"),
    (r"\bAPACHE LICEN[CS]E\b", "APACHE"),
    (r"\bMIT LICEN[CS]E\b", "MIT"),
)
#: Words of a remark that restricts what the licence beside it permits (matched as words, any
#: case): any one keeps the audio out.
RESTRICTING = re.compile(
    r"\b(?:non[- ]?commercial|NC|ND|research|academic|educational|scientific|only|except|"
    r"excluding|excludes?|without|not|no|never|may|must|permission|approval|consent|agreement|"
    r"LDC|proprietary|restrict\w*|prohibit\w*|forbid\w*|internal|evaluation|personal|private|"
    r"request|registration|registered|members?|subscribers?|paid|fee|custom|terms)\b",
    re.IGNORECASE,
)
_FILLER = {"LICENSE", "LICENCE", "INTERNATIONAL", "VERSION", "GENERIC", "UNPORTED", "PUBLIC"}


def spdx_of(licence: str) -> str:
    """A licence as an SPDX-style identifier: upper case, a remark in parentheses or brackets
    dropped (:func:`restricting_remark` reads it),
    filler words dropped, parts joined by ``-`` (``CC BY 4.0`` and ``cc-by-4.0`` alike).

    >>> spdx_of("CC BY 4.0"), spdx_of("Apache License, Version 2.0"), spdx_of("MIT (pyannote sample)")
    ('CC-BY-4.0', 'APACHE-2.0', 'MIT')
    >>> spdx_of("CC BY-NC4.0"), spdx_of("Creative Commons Attribution-ShareAlike 4.0 International")
    ('CC-BY-NC4.0', 'CC-BY-SA-4.0')
    """
    text = re.sub(r"[(\[][^)\]]*[)\]]", " ", licence.upper())
    for pattern, name in _NAMES:
        text = re.sub(pattern, name, text)
    parts = [p for p in re.split(r"[\s,;_/-]+", text) if p and p not in _FILLER]
    parts = [p.removeprefix("V") if re.fullmatch(r"V\d+(\.\d+)*", p) else p for p in parts]
    joined = "-".join(parts)
    return "CC0-1.0" if joined == "CC0" else joined  # CC0 has one version


def restricting_remark(licence: str) -> str | None:
    """The first parenthesised or bracketed remark of ``licence`` that restricts use, or None.

    >>> restricting_remark("CC BY 4.0 (non-commercial use only)")
    '(non-commercial use only)'
    >>> restricting_remark("MIT (pyannote-audio sample)") is None
    True
    """
    for remark in re.findall(r"[(\[][^)\]]*[)\]]", licence):
        if RESTRICTING.search(remark):
            return remark
    return None


def redistributable(licence: str) -> bool:
    """True when the licence is on the allow-list and no remark of it restricts use (see the
    module docstring).

    >>> [redistributable(x) for x in ("CC BY-SA 4.0", "CC BY-NC-ND 4.0", "", "research use only")]
    [True, False, False, False]
    >>> redistributable("LDC User Agreement for Non-Members"), redistributable("CC0")
    (False, True)
    >>> redistributable("CC BY 4.0 (non-commercial use only)")
    False
    """
    return spdx_of(licence) in REDISTRIBUTABLE and restricting_remark(licence) is None


def restricted(licence: str) -> bool:
    """True when the audio must stay out of an export (not :func:`redistributable`)."""
    return not redistributable(licence)


def licence_lines(sources: Sequence[str], licences: dict[str, tuple[str, str]]) -> list[str]:
    """One line per source corpus: its licence and citation as the dataset sheet gives them,
    and the rule that applied to its audio.

    >>> licence_lines(["ami"], {"ami": ("CC BY 4.0", "Carletta 2005")})[0]
    '- ami: CC BY 4.0. Cite: Carletta 2005. Audio exported: CC-BY-4.0 is on the allow-list of licences that permit redistribution.'
    >>> licence_lines(["x"], {})[0].startswith("- x: licence not given in the dataset sheet")
    True
    """
    lines = []
    for source in sources:
        licence, citation = licences.get(source, ("", ""))
        line = f"- {source}: {licence or 'licence not given in the dataset sheet (check before sharing)'}"
        line += f". Cite: {citation}" if citation else ""
        remark = restricting_remark(licence)
        if remark and spdx_of(licence) in REDISTRIBUTABLE:
            line += (
                f". **Its audio is not redistributed**: the remark {remark} restricts what "
                f"{spdx_of(licence)} permits (msbench.export.licences); references and metadata "
                "only, unless exported with --include-restricted-audio."
            )
        elif restricted(licence):
            line += (
                ". **Its audio is not redistributed**: its licence is not on the allow-list of "
                "licences known to permit redistribution (msbench.export.licences); "
                "references and metadata only, unless exported with "
                "--include-restricted-audio."
            )
        else:
            line += f". Audio exported: {spdx_of(licence)} is on the allow-list of licences that permit redistribution."
        lines.append(line)
    return lines
