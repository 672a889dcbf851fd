"""One scored system as the review site reads it: its evaluation tables and its outputs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from msbench.errors import InputError
from msbench.io.read import read_segments
from msbench.review.recording import speaker_name
from msbench.review.results import hypothesis_lanes, marks, unit_scores
from msbench.scoring.evaluate import MissingOutput, SystemSpec, load_output
from msbench.scoring.units import Unit


@dataclass
class SystemView:
    system_id: str
    name: str
    spec: SystemSpec
    units: list[dict[str, Any]] = field(default_factory=list)
    utterances: list[dict[str, Any]] = field(default_factory=list)
    single_file: list[Any] | None = None
    recordings: list[dict[str, Any]] = field(default_factory=list)  # recording_scores.csv
    alignments: Path | None = None  # the evaluation's alignments/ folder (word views)


def load_system_view(entry: Mapping[str, Any], evaluation_dir: Path) -> SystemView:
    """The system of config entry ``entry``, scored in ``evaluation_dir`` (results/evaluation/<id>)."""
    from msbench.catalog import RECORDING_SCORES, UNIT_SCORES, UTTERANCE_SCORES, system_file
    from msbench.tables import read_rows

    spec = SystemSpec.from_config(entry)
    single = read_segments(spec.outputs, spec.format) if spec.outputs.is_file() else None
    return SystemView(
        spec.system_id,
        spec.name,
        spec,
        read_rows(UNIT_SCORES, system_file(evaluation_dir, UNIT_SCORES.name)),
        read_rows(UTTERANCE_SCORES, system_file(evaluation_dir, UTTERANCE_SCORES.name)),
        single,
        read_rows(RECORDING_SCORES, system_file(evaluation_dir, RECORDING_SCORES.name)),
        evaluation_dir / "alignments" if (evaluation_dir / "alignments").is_dir() else None,
    )


def word_view_script(view: SystemView, unit_id: str) -> str | None:
    """The site path (from the site's root) of a unit's word view script, None without one."""
    from msbench.scoring.word_view import file_name

    if view.alignments is None or not (view.alignments / file_name(unit_id)).is_file():
        return None
    return f"alignments/{view.system_id}/{file_name(unit_id).removesuffix('.json')}.js"


def system_view(view: SystemView, rid: str, window: tuple[float, float]) -> dict[str, Any]:
    """Hypothesis lanes, utterance marks and unit scores of ``view`` on recording ``rid``."""
    units = [u for u in view.units if u["recording_id"] == rid]
    segments: list[Any] = []
    problems = []
    for row in units:
        unit = Unit(str(row["unit_id"]), rid, float(row["start"]), float(row["end"]))
        try:
            segments += load_output(view.spec, unit, view.single_file)
        except (MissingOutput, InputError) as error:  # shown on the page, as the scorer saw it
            problems.append(f"{unit.unit_id}: {error}")
    speakers, lanes = hypothesis_lanes(segments, window)
    utterances = [u for u in view.utterances if u["recording_id"] == rid]
    mapped = {
        str(u["hyp_speaker"]): speaker_name(str(u["attributed_to"]))
        for u in utterances
        if u["hyp_speaker"] and u["attributed_to"]
    }
    return {
        "alignments": {u["unit_id"]: word_view_script(view, str(u["unit_id"])) for u in units},
        "hyp_to_ref": {s: mapped.get(s) for s in speakers},
        "hyp_speakers": speakers,
        "hyp_segments": lanes,
        "marks": marks(utterances, window),
        "units": [unit_scores(u) for u in units],
        "problems": problems,
    }
