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


def test_a_new_family_is_one_record(tmp_path, monkeypatch):
    """A toy family (a voice count under its own code) added as one record, in the test tree:
    generation, the truth check, HEAR's fields, category and prompt need nothing else."""
    from msbench.catalog import RECORDINGS, UTTERANCES
    from msbench.config import default_config
    from msbench.probes.clips import probed_clips
    from msbench.probes.discrimination import voice_cardinality
    from msbench.probes.families import Family
    from msbench.probes.generate import generate
    from msbench.probes.hear import category, runner_row
    from msbench.probes.truth import count_truth
    from msbench.probes.write import rows_by_id
    from msbench.tables import read_rows
    from tests.helpers.probes import probe_inputs

    toy = Family("TOY", "Discrimination", {"voice_count": "TOY1_count"}, voice_cardinality,
                 count_truth, "plain")  # fmt: skip
    monkeypatch.setitem(FAMILIES, "TOY", toy)
    recordings, utterances = probe_inputs(tmp_path)
    rows = rows_by_id(read_rows(RECORDINGS, recordings))
    settings = {**default_config()["probes"], "families": ["TOY"], "seed": 0}
    clips = probed_clips(rows, read_rows(UTTERANCES, utterances), sorted(rows), settings, {})
    generated = generate(
        clips, {rid: str(r["source_dataset"]) for rid, r in rows.items()}, settings
    )
    assert generated.rows, dict(generated.dropped)
    for row in generated.rows:
        item = {**row, "overlap": row["overlap"]}
        assert row["subtaxonomy"] == "TOY" and row["task_name"] == "TOY1_count"
        assert row["question_id"].endswith(("__TOY01", "__TOY02", "__TOY03"))
        assert category(item).startswith("TOY1_count")
        assert runner_row(item)["instruction"].startswith(PLAIN_HEAD)


def test_the_schema_file_lists_no_family_and_no_export():
    """The YAML holds neither list: the families and exports are filled in from their registries
    when the schema is loaded (msbench.config.REGISTERED_CHOICES)."""
    from msbench.config import REGISTERED_CHOICES
    from tests.helpers.paths import REPO

    text = (REPO / "src/msbench/schemas/config.schema.yaml").read_text(encoding="utf-8")
    assert not any(word in text for word in ("VL, VCD", "CVA, VCA", "[lhotse", "hf, kaldi"))
    assert set(REGISTERED_CHOICES) == {"probes.families", "export.formats"}
    export = load_schema("config.schema.yaml")["properties"]["export"]["properties"]["formats"]
    assert (
        export["items"]["enum"] == ["lhotse", "hf", "kaldi", "seglst"] and export["default"] == []
    )
