"""The probe families, once: code, HEAR axis, HEAR task names, and the function that drafts items.

Every other module takes a family's facts from :data:`FAMILIES`: the
generator list, the rows' ``taxonomy`` (HEAR's axis, capitalised as HEAR's
Ver-A scorer matches it: ``Reasoning``), ``subtaxonomy`` (the family code) and
``task_name`` (HEAR's form, from which HEAR's ``rebuild_category`` makes labels
such as ``QR1_nonoverlap``, ``TR1_first_overlap``, ``VCD_change``, ``VC_overlap``):

* families without sub-tasks have the task ``none``;
* VCD's task is its regime (``change``, ``overlap``), with no overlap suffix;
* QR, TR and VL tasks carry the sub-dimension prefix (``QR1``, ``TR1_first``).

msbench's own word for a sub-task (``when_silent``, ``rank_2``) stays in each
item's ``subtask`` field.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from msbench.probes.attribution import content_to_voice, voice_to_content
from msbench.probes.clips import Clip
from msbench.probes.discrimination import voice_cardinality, voice_change, voice_localisation
from msbench.probes.items import Draft
from msbench.probes.reasoning import identity, quantitative, temporal
from msbench.probes.truth import (
    TruthRule,
    change_truth,
    count_truth,
    line_truth,
    localisation_truth,
    quantity_truth,
    speaker_truth,
)

Generator = Callable[[Clip, Mapping[str, Any], random.Random], list[Draft]]


@dataclass(frozen=True)
class Family:
    """Everything about one family: adding a family is adding one record here (the config's
    ``probes.families`` choices and default are these records' codes, in this order)."""

    code: str  # HEAR's subtaxonomy: "VC"
    axis: str  # HEAR's taxonomy: "Discrimination", "Attribution", "Reasoning"
    tasks: Mapping[str, str]  # msbench's sub-task -> HEAR's task_name
    draft: Generator  # clip, settings, seeded rng -> drafts
    truth: TruthRule  # which options are true in the clip (the answer must be the only one)
    prompt: str  # HEAR's instruction head: "plain", "reference" (a voice is played first), "voices"

    def drafts(self, clip: Clip, settings: Mapping[str, Any], rng: random.Random) -> list[Draft]:
        """The family's drafts of a clip, each stamped with the family's code."""
        return [replace(d, family=self.code) for d in self.draft(clip, settings, rng)]


FAMILIES: dict[str, Family] = {
    family.code: family
    for family in (
        Family(
            "VC", "Discrimination", {"voice_count": "none"}, voice_cardinality, count_truth, "plain"
        ),
        Family(
            "VL",
            "Discrimination",
            {"when_speaking": "VL1_speaking", "when_silent": "VL2_silent"},
            voice_localisation,
            localisation_truth,
            "reference",
        ),
        Family(
            "VCD",
            "Discrimination",
            {"switch": "change", "overlap": "overlap"},
            voice_change,
            change_truth,
            "plain",
        ),
        Family(
            "CVA", "Attribution", {"which_voice": "none"}, content_to_voice, speaker_truth, "voices"
        ),
        Family(
            "VCA", "Attribution", {"which_line": "none"}, voice_to_content, line_truth, "reference"
        ),
        Family("IR", "Reasoning", {"same_speaker": "none"}, identity, line_truth, "plain"),
        Family(
            "TR",
            "Reasoning",
            {"first": "TR1_first", "next": "TR2_next"},
            temporal,
            line_truth,
            "plain",
        ),
        Family(
            "QR",
            "Reasoning",
            {"word_count": "QR1", "rank_1": "QR2_rank1", "rank_2": "QR2_rank2"},
            quantitative,
            quantity_truth,
            "plain",
        ),
    )
}
