"""One record per probe family (msbench.probes.families): the config, HEAR's prompt and the truth
rule all come from it."""

from __future__ import annotations

from msbench.config import load_schema
from msbench.probes.families import FAMILIES
from msbench.probes.hear import CVA_HEAD, PLAIN_HEAD, REFERENCE_HEAD, instruction


def test_the_config_lists_exactly_the_registered_families_in_their_order():
    probes = load_schema("config.schema.yaml")["properties"]["probes"]["properties"]
    families = probes["families"]
    assert families["items"]["enum"] == list(FAMILIES) == families["default"]


def test_each_familys_prompt_comes_from_its_record():
    heads = {"plain": PLAIN_HEAD, "reference": REFERENCE_HEAD, "voices": CVA_HEAD}
    for code, family in FAMILIES.items():
        row = {"subtaxonomy": code, "question": "Q?", "options": ["a", "b"]}
        assert instruction(row).startswith(heads[family.prompt]), code
    assert {f.prompt for f in FAMILIES.values()} == set(heads)
    assert all(callable(f.truth) and callable(f.draft) for f in FAMILIES.values())
