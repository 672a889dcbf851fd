"""The probe families, once: code, HEAR axis, task, and the function that drafts its items.

Every other module takes a family's facts from :data:`FAMILIES` (the
generator list, the rows' ``taxonomy`` and ``task_name``, the scorer's groups).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from msbench.probes.attribution import content_to_voice, voice_to_content
from msbench.probes.clips import Clip
from msbench.probes.discrimination import voice_cardinality, voice_change, voice_localisation
from msbench.probes.items import Draft
from msbench.probes.reasoning import identity, quantitative, temporal

Generator = Callable[[Clip, Mapping[str, Any], random.Random], list[Draft]]


@dataclass(frozen=True)
class Family:
    code: str  # "VC"
    axis: str  # HEAR's axis (the rows' taxonomy)
    task: str  # the rows' task_name
    draft: Generator  # clip, settings, seeded rng -> drafts


FAMILIES: dict[str, Family] = {
    family.code: family
    for family in (
        Family("VC", "discrimination", "voice_cardinality", voice_cardinality),
        Family("VL", "discrimination", "voice_localisation", voice_localisation),
        Family("VCD", "discrimination", "voice_change_detection", voice_change),
        Family("CVA", "attribution", "content_to_voice", content_to_voice),
        Family("VCA", "attribution", "voice_to_content", voice_to_content),
        Family("IR", "reasoning", "identity_reasoning", identity),
        Family("TR", "reasoning", "temporal_reasoning", temporal),
        Family("QR", "reasoning", "quantitative_reasoning", quantitative),
    )
}
