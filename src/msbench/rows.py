"""The rows that travel between stages, typed: each manifest's columns, their order and types.

One definition per manifest, as meeteval's ``SegLstSegment`` is for SegLST: a
``TypedDict`` whose fields are the table's columns in order, annotated with
their types. :mod:`msbench.columns` takes the column order from here
(:func:`columns_of`), :func:`msbench.tables.read_rows` parses each cell by its
table's own type (:func:`types_of`), and mypy checks every field name a stage
reads. A missing value is ``None``.

=================  ==========================================  ===========================
row                manifest                                    written by
=================  ==========================================  ===========================
:class:`BenchmarkRow`  ``results/manifests/benchmark.csv``     ``select``
:class:`RecordingRow`  ``results/manifests/recordings.csv``    ``overview`` (its core fields)
:class:`UnitRow`       ``results/units/units.csv``             ``units``, or a system's own
:class:`UtteranceRow`  ``results/manifests/utterances.csv``    ``collect``
=================  ==========================================  ===========================
"""

import types
import typing
from typing import Any, NotRequired, Required, TypedDict


class IdentityRow(TypedDict, total=False):
    """The official MS-Bench release's identity fields, first in every recording table.

    Only ``recording_id`` and ``duration_seconds`` are required in a file a user
    gives (a kept ``benchmark.csv``); the others are ``None`` where absent.
    """

    recording_id: Required[str]
    source_dataset: str
    language: str | None
    scenario: str | None
    recording_device: str | None
    duration_seconds: Required[float]


class LabelledRow(IdentityRow, total=False):
    """Identity, the five range labels, the profile and the five features (release names)."""

    P: str | None
    O: str | None  # noqa: E741 - the axis is called O
    S: str | None
    T: str | None
    N: str | None
    profile: str | None
    num_speakers: int | None
    overlap_ratio: float | None
    speaker_similarity_max: float | None
    speaker_switch_q25: float | None
    noise_difficulty: float | None


class BenchmarkRow(LabelledRow, total=False):
    """One selected recording (``benchmark.csv``): its utility, what it replaced, its scored region."""

    C: float | None
    M: float | None
    D: float | None
    R: float | None
    U: float | None
    replaces: str | None
    scored_spans: list[list[float]] | None  # [[start, end], ...]; None in older files


class RecordingRow(LabelledRow, total=False):
    """The fields of ``recordings.csv`` other stages read (the table has every feature)."""

    audio_path: str
    channel: int | None
    num_channels: int | None
    sample_rate: int | None
    scored_spans: list[list[float]] | None
    eligible: bool | None
    selected: bool | None


class UnitRow(TypedDict):
    """One inference unit (``units.csv``): a span of a recording a system is run on."""

    unit_id: str
    recording_id: str
    start: float
    end: float


class UtteranceRow(TypedDict):
    """One reference utterance (``utterances.csv``) with its overlap exposure r_ov."""

    recording_id: str
    speaker: str
    start_time: float
    end_time: float
    words: NotRequired[str | None]
    overlap_exposure: NotRequired[float | None]


def columns_of(row_type: type) -> tuple[str, ...]:
    """A row type's columns, in order.

    >>> columns_of(UnitRow)
    ('unit_id', 'recording_id', 'start', 'end')
    """
    return tuple(typing.get_type_hints(row_type))


def types_of(row_type: type) -> dict[str, str]:
    """Each column's cell type: ``str``, ``int``, ``float``, ``bool`` or ``json`` (lists).

    >>> types_of(UnitRow)["start"], types_of(BenchmarkRow)["scored_spans"]
    ('float', 'json')
    """
    return {name: _kind(hint) for name, hint in typing.get_type_hints(row_type).items()}


def _kind(hint: Any) -> str:
    if typing.get_origin(hint) in (typing.Required, typing.NotRequired):
        hint = typing.get_args(hint)[0]
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        hint = next(arg for arg in typing.get_args(hint) if arg is not type(None))
    if typing.get_origin(hint) in (list, dict):
        return "json"
    return {str: "str", int: "int", float: "float", bool: "bool"}[hint]
