"""Every way a recording is left out of a benchmark, with a stable code and a message.

A recording seen by msbench ends in exactly one of these places:

=====================  =================  ==============================================
where                  code               meaning
=====================  =================  ==============================================
``rejected.csv``       ``ingest_invalid``     annotation or audio unusable (file, line, fix)
``rejected.csv``       ``extraction_failed``  a model could not read or score its audio
``recordings.csv``     ``few_speakers``       fewer than ``eligibility.min_speakers`` speakers
``recordings.csv``     ``t_undefined``        no non-overlapping speaker change
``recordings.csv``     ``s_undefined``        fewer than two speakers with clean speech
``recordings.csv``     ``n_undefined``        no DNSMOS/NISQA scores
``recordings.csv``     ``audio_integrity``    dropouts, heavy clipping or DC offset (integrity_flags)
``recordings.csv``     ``unlabelled``         no label on an axis (value missing or outside every range)
pool (``pool_code``)   ``qc_rejected``        failed quality control (``selection.qc_rejected``)
pool                   ``ineligible``         one of the ineligibility codes above
pool                   ``too_short``          shorter than ``pool.min_duration_seconds``
pool                   ``too_long``           longer than ``pool.max_duration_seconds``
pool                   ``profile_cell_full``  its P-O-S-T-N cell holds ``pool.max_per_profile``
pool                   ``source_share``       its source is over ``pool.max_source_share``
selection              ``not_selected``       in the pool, not chosen by the integer program
=====================  =================  ==============================================

Codes never change meaning; messages are built from the configuration actually
used, so a configured value never appears hard-coded in a message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

INGEST_INVALID = "ingest_invalid"
EXTRACTION_FAILED = "extraction_failed"
FEW_SPEAKERS = "few_speakers"
T_UNDEFINED = "t_undefined"
S_UNDEFINED = "s_undefined"
N_UNDEFINED = "n_undefined"
AUDIO_INTEGRITY = "audio_integrity"
UNLABELLED = "unlabelled"
QC_REJECTED = "qc_rejected"
INELIGIBLE = "ineligible"
TOO_SHORT = "too_short"
TOO_LONG = "too_long"
PROFILE_CELL_FULL = "profile_cell_full"
SOURCE_SHARE = "source_share"
NOT_SELECTED = "not_selected"

#: The stage that writes a rejection, to its code.
REJECTION_CODES = {"ingest": INGEST_INVALID, "acoustic": EXTRACTION_FAILED}


@dataclass(frozen=True)
class Reason:
    """Why a recording is left out: a stable ``code`` and a human ``message``."""

    code: str
    message: str


def join_codes(reasons: Sequence[Reason]) -> str:
    """``a; b`` (the manifests' list separator).

    >>> join_codes([Reason("t_undefined", "..."), Reason("s_undefined", "...")])
    't_undefined; s_undefined'
    """
    return "; ".join(reason.code for reason in reasons)


def join_messages(reasons: Sequence[Reason]) -> str:
    return "; ".join(reason.message for reason in reasons)


def ineligibility(
    row: Mapping[str, Any], min_speakers: int, min_clean_seconds: float
) -> list[Reason]:
    """Why a characterized recording cannot be a benchmark candidate (empty: eligible).

    >>> [r.code for r in ineligibility({"num_speakers": 1}, 2, 2.0)]
    ['few_speakers', 't_undefined', 's_undefined', 'n_undefined']
    """
    reasons = []
    if row["num_speakers"] < min_speakers:
        reasons.append(
            Reason(FEW_SPEAKERS, f"fewer than {min_speakers} speakers ({row['num_speakers']})")
        )
    if row.get("speaker_switch_q25") is None:
        reasons.append(Reason(T_UNDEFINED, "T undefined: no non-overlapping speaker change"))
    if row.get("speaker_similarity_max") is None:
        reasons.append(
            Reason(
                S_UNDEFINED,
                "S undefined: fewer than two speakers with clean speech over "
                f"{min_clean_seconds} s",
            )
        )
    if row.get("noise_difficulty") is None:
        reasons.append(Reason(N_UNDEFINED, "N undefined: no DNSMOS/NISQA scores"))
    if row.get("integrity_flags"):
        reasons.append(Reason(AUDIO_INTEGRITY, f"audio integrity: {row['integrity_flags']}"))
    return reasons


def unlabelled(
    row: Mapping[str, Any], axes: Sequence[tuple[str, str, float | None]]
) -> list[Reason]:
    """A reason per axis ``(name, field, minimum)`` on which ``row`` has no label.

    >>> axes = [("P", "num_speakers", 2), ("S", "speaker_similarity_max", None)]
    >>> [r.message for r in unlabelled({"num_speakers": 1, "conditions": {}}, axes)]
    ['num_speakers 1 is below the lowest range of P (it starts at 2)', 'missing speaker_similarity_max (S)']
    """
    reasons = []
    for name, field, minimum in axes:
        if (row.get("conditions") or {}).get(name) is not None:
            continue
        value = row.get(field)
        if value is None:
            reasons.append(Reason(UNLABELLED, f"missing {field} ({name})"))
        elif minimum is not None and value < minimum:
            message = (
                f"{field} {value:g} is below the lowest range of {name} (it starts at {minimum:g})"
            )
            reasons.append(Reason(UNLABELLED, message))
        else:
            reasons.append(Reason(UNLABELLED, f"{field} {value:g} is outside the ranges of {name}"))
    return reasons


def pool_exclusion(
    row: Mapping[str, Any],
    settings: Mapping[str, Any],
    qc: Mapping[str, str],
    axes: Sequence[str],
) -> Reason | None:
    """Why an (otherwise characterized) recording does not enter the candidate pool."""
    if row["recording_id"] in qc:
        return Reason(QC_REJECTED, f"quality control: {qc[row['recording_id']]}")
    if not row.get("eligible", True):
        return Reason(
            INELIGIBLE, f"ineligible: {row.get('ineligible_reasons') or 'see recordings.csv'}"
        )
    if not row.get("profile"):
        missing = [a for a in axes if not (row.get("conditions") or {}).get(a)]
        return Reason(INELIGIBLE, f"ineligible: no label on axis {', '.join(missing)}")
    duration = float(row["duration_seconds"])
    if duration < settings["min_duration_seconds"]:
        return Reason(TOO_SHORT, f"shorter than {settings['min_duration_seconds']} s")
    maximum = settings.get("max_duration_seconds")
    if maximum is not None and duration > maximum:
        return Reason(TOO_LONG, f"longer than {maximum} s")
    return None


def cell_full(cell: str, cap: int) -> Reason:
    return Reason(PROFILE_CELL_FULL, f"profile cell {cell} full ({cap} candidates)")


def source_over_share(source: str, share: float, cell: str) -> Reason:
    return Reason(
        SOURCE_SHARE,
        f"source {source!r} over {share:.0%} of pool hours (dropped from crowded cell {cell})",
    )
