"""Counterfactual pairs through the re-voicing interface, with stand-in converters (tests only).

No voice-conversion model ships on the package registries; these stand-ins are
not models: one returns the target speaker's own speech (CAM++ must keep it),
the other returns the source unchanged (CAM++ must reject it).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import soundfile

from msbench.errors import InputError
from msbench.probes.accuracy import score_answers
from msbench.probes.assemble import RATE
from msbench.probes.counterfactual import load_revoicer
from tests.helpers.paths import SHARED_MODELS, require_shared
from tests.helpers.probes import make_probe_set

pytestmark = pytest.mark.models

TARGET_SPEECH = """
import numpy as np


class TargetSpeech:
    def convert(self, source, target_voice, rate):
        repeats = int(np.ceil(len(source) / len(target_voice)))
        return np.tile(target_voice, repeats)[: len(source)]


def load(folder):
    return TargetSpeech()
"""
UNCHANGED = """
class Unchanged:
    def convert(self, source, target_voice, rate):
        return source


def load(folder):
    return Unchanged()
"""


def revoicer_folder(root: Path, code: str) -> Path:
    root.mkdir(parents=True)
    (root / "msbench_revoicer.py").write_text(code, encoding="utf-8")
    return root


def probe_set(tmp_path: Path, code: str) -> tuple[Path, list[dict], dict]:
    models = {"models": {"search_dirs": [str(require_shared(SHARED_MODELS))], "offline": True}}
    folder = revoicer_folder(tmp_path / "vc", code)
    # the demo's 30 s clips leave few clean 2 s voices outside the evidence: 1 s voices,
    # six IR items a clip (two by default), flagged rather than dropped by the text-only
    # filter, give pairs to check
    out = make_probe_set(
        tmp_path / "run",
        runtime=models,
        counterfactual={"model": str(folder)},
        per_clip=6,
        voice_min_seconds=1.0,
        text_only="flag",
    )
    items = [json.loads(x) for x in (out / "items.jsonl").read_text().splitlines()]
    return out, items, json.loads((out / "probe_summary.json").read_text())


def test_checked_conversions_become_pairs_whose_answer_flips(tmp_path: Path):
    out, items, summary = probe_set(tmp_path, TARGET_SPEECH)
    by_id = {i["question_id"]: i for i in items}
    fakes = [i for i in items if i["question_id"].endswith("_hallucinated")]
    assert len(fakes) == summary["counterfactual_pairs"] > 0
    for fake in fakes:
        original = by_id[fake["question_id"].replace("_hallucinated", "_original")]
        revoiced = fake["derivation"]["revoiced"]
        assert revoiced["ranking"][0] == revoiced["to"] != revoiced["from"]
        assert revoiced["source_similarity"] < 0.5
        assert fake["option_speakers"][fake["answer_idx"]] == revoiced["to"]
        assert original["option_speakers"][original["answer_idx"]] == revoiced["from"]
        assert (
            fake["answer_idx"] != original["answer_idx"] and fake["options"] == original["options"]
        )
        # the audio differs only inside the re-voiced utterance
        a, _ = soundfile.read(out / original["audio_path"], dtype="float32")
        b, _ = soundfile.read(out / fake["audio_path"], dtype="float32")
        span = next(e for e in fake["evidence"] if e["speaker"] == revoiced["from"])
        low = int(round((span["start"] - fake["clip_start"]) * RATE))
        high = int(round((span["end"] - fake["clip_start"]) * RATE))
        assert (
            len(a) == len(b)
            and np.array_equal(a[:low], b[:low])
            and np.array_equal(a[high + 1 :], b[high + 1 :])
        )
        assert not np.array_equal(a[low:high], b[low:high])
    # a model that ignores the re-voicing answers both halves alike: Ver-A 0
    same = {i["question_id"]: "ABCDE"[by_id[i["question_id"].replace("_hallucinated", "_original")]["answer_idx"]]
            for i in items if i["question_id"].endswith(("_original", "_hallucinated"))}  # fmt: skip
    pairs = [i for i in items if i["question_id"] in same]
    assert score_answers(pairs, same)["pairs_correct"] == 0


def test_a_conversion_that_keeps_the_source_voice_is_rejected(tmp_path: Path):
    _, items, summary = probe_set(tmp_path, UNCHANGED)
    assert summary["counterfactual_pairs"] == 0
    assert summary["counterfactual_not_made"]["rejected by the CAM++ check"] > 0
    assert not any(i["question_id"].endswith("_hallucinated") for i in items)


def test_a_model_folder_without_the_interface_says_what_to_put_there(tmp_path: Path):
    with pytest.raises(InputError, match="no msbench_revoicer.py .*load\\(folder\\)"):
        load_revoicer(tmp_path)
