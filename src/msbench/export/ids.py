"""One id sanitiser for every export writer, what it changed, and the audio an export needs.

Line formats split at whitespace (Kaldi's files, STM, UEM, RTTM), so every writer writes an id
(recording, unit, speaker) through :func:`export_id`: whitespace becomes ``_``. The SegLST, UEM,
STM, Kaldi, lhotse and Hugging Face files of one export then name the same things alike (the
export's README's meeteval command read a five-field UEM line where SegLST kept the space).
:func:`id_changes` lists every id changed, for the README and the terminal; two ids that would
become one are refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from msbench.errors import InputError
from msbench.export.bundle import Bundle
from msbench.io.collector import one_field

export_id = one_field

#: The formats that read the units' FLAC (lhotse cuts, the Hugging Face shards) and the
#: recordings' own audio (lhotse recordings, Kaldi's wav.scp).
UNIT_AUDIO = ("lhotse", "hf")
SOURCE_AUDIO = ("lhotse", "kaldi")


def bundle_ids(bundle: Bundle) -> list[str]:
    """Every recording, unit and speaker id an export writes."""
    ids = [str(r["recording_id"]) for r in bundle.selected] + [u.unit_id for u in bundle.units]
    for table in (bundle.utterances, bundle.activity):
        ids += [u.speaker for rows in table.values() for u in rows]
    return sorted(set(ids))


def id_changes(bundle: Bundle) -> dict[str, str]:
    """``{id: exported id}`` for each id :func:`export_id` changes; a clash is an error.

    >>> export_id(" Speaker A "), export_id("ami::tst00")
    ('Speaker_A', 'ami::tst00')
    """
    ids = bundle_ids(bundle)
    made: dict[str, str] = {}
    for name in ids:
        made.setdefault(export_id(name), name)
        if made[export_id(name)] != name:
            raise InputError(
                "results/manifests",
                f"ids {made[export_id(name)]!r} and {name!r} would both be "
                f"exported as {export_id(name)!r}",
                fix="rename one of them in the source's annotations (or the dataset sheet's name)",
            )
    return {name: export_id(name) for name in ids if export_id(name) != name}


def missing_audio(bundle: Bundle, formats: Sequence[str]) -> list[Path]:
    """The audio files the chosen formats read that are not there (checked before writing)."""
    wanted: list[Path] = []
    if any(f in UNIT_AUDIO for f in formats):
        wanted += [bundle.unit_audio / f"{unit.unit_id}.flac" for unit in bundle.units]
    if any(f in SOURCE_AUDIO for f in formats):
        wanted += [
            Path(str(bundle.audio[str(r["recording_id"])]["audio_path"])) for r in bundle.selected
        ]
    return [path for path in wanted if not path.is_file()]


def refuse_missing_audio(bundle: Bundle, formats: Sequence[str]) -> None:
    """One line naming the missing audio, before any file is written."""
    missing = missing_audio(bundle, formats)
    if missing:
        shown = ", ".join(str(p) for p in missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        )
        raise InputError(
            missing[0],
            f"{len(missing)} audio file(s) the export reads are missing: {shown}",
            fix="rerun the units step (results/units/audio) or restore the sources' audio; "
            "nothing was written",
        )
