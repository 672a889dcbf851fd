"""One metric registry (msbench.metrics): a toy metric added as one record, with no other change,
is in every score table, the leaderboard and its views, the comparison, the results page and
the review site's data; and the registry's rates equal the tables' own."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from msbench.metrics import BY_NAME, COMPARED, METRICS
from tests.helpers.paths import REPO

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core

TOY = (
    '    Metric("cp_insertion_rate", "cpIns", ("cp_insertions",), "cp_length", "tokens", "wer",\n'
    '           "cpWER insertions / reference tokens (a toy: tests/unit/test_metric_registry.py)"),\n'
)

#: Run with the copied package first on the path: every stage the workflow runs after scoring.
SCRIPT = """
import json, sys
from pathlib import Path

import pytest
from msbench.stages import compare, evaluate, leaderboard, simulate
from msbench.review.build import SCORE_FIELDS
from msbench.review.results import UNIT_SCORES
from msbench.review.results_page import results_page
from msbench.metrics import site_metrics
from tests.helpers.diagnostics import demo_references, write_inputs, write_similarity

tmp = Path(sys.argv[1])
write_inputs(tmp, demo_references())
write_similarity(tmp / "speaker_similarity.jsonl", {})
for system, seed in (("a", 1), ("b", 2)):
    entry = {"id": system, "simulate": {"seed": seed, "insertion": 0.1}}
    simulate.run(json.dumps(entry), tmp / "benchmark.csv", tmp / "utterances.csv", tmp / "out" / system)
    evaluate.run(outputs=tmp / "out" / system, system_id=system, benchmark=tmp / "benchmark.csv",
                 utterances=tmp / "utterances.csv", out_dir=tmp / "evaluation" / system)
folders = (tmp / "evaluation/a", tmp / "evaluation/b")
compare.run(folders, tmp / "benchmark.csv", tmp / "evaluation/compare")
leaderboard.run(folders, tmp / "benchmark.csv", tmp / "evaluation",
                comparison=tmp / "evaluation/compare/pairs.csv")
page = results_page(tmp / "evaluation", {}, tmp / "site")
print(json.dumps({"site": [m["name"] for m in site_metrics()], "index": list(SCORE_FIELDS),
                  "recording_page": list(UNIT_SCORES), "results_page": page}))
"""


def test_a_toy_metric_is_everywhere_with_one_record(tmp_path: Path):
    package = tmp_path / "src"
    shutil.copytree(REPO / "src" / "msbench", package / "msbench",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    registry = package / "msbench" / "metrics.py"
    text = registry.read_text(encoding="utf-8")
    anchor = "\n)\n\nBY_NAME"
    assert text.count(anchor) == 1
    registry.write_text(text.replace(anchor, "\n" + TOY.rstrip("\n") + anchor), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(package), str(REPO)])}
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "run")], env=env,
                          capture_output=True, text=True, timeout=900)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    run = tmp_path / "run" / "evaluation"
    for table in ("a/unit_scores.csv", "a/recording_scores.csv", "leaderboard.csv",
                  "by_condition.csv"):  # fmt: skip
        header = (run / table).read_text(encoding="utf-8").splitlines()[0].split(",")
        assert "cp_insertion_rate" in header, table
    views = (run / "leaderboard_views.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert {"cp_insertion_rate", "cp_insertion_rate_low", "cp_insertion_rate_high"} <= set(views)
    pairs = (run / "compare/pairs.csv").read_text(encoding="utf-8")
    assert ",cp_insertion_rate," in pairs
    summary = json.loads((run / "a/score_summary.json").read_text(encoding="utf-8"))
    assert summary["cp_insertion_rate"] == summary["cp_insertions"] / summary["cp_length"] > 0
    compared = json.loads((run / "compare/compare.json").read_text(encoding="utf-8"))
    toy = [p for p in compared["pairs"] if p["metric"] == "cp_insertion_rate"]
    assert toy and all(p["low"] is not None for p in toy if p["group"] == "all")
    assert "cp_insertion_rate" in shown["site"] and "cp_insertion_rate" in shown["index"]
    assert "cp_insertion_rate" in shown["recording_page"]
    page = shown["results_page"]
    for table in ("leaderboard", "by-condition"):  # each table's own header names the metric
        header = page.split(f'<table id="{table}"><thead>', 1)[1].split("</thead>", 1)[0]
        assert "<th>cp_insertion_rate</th>" in header, table
    comparison = page.split('<table id="comparison">', 1)[1].split("</table>", 1)[0]
    assert "<td>cp_insertion_rate</td>" in comparison


def test_the_registry_is_the_tables_rate():
    """Each metric's rate is the ratio of its summed statistics; the compared ones lead."""
    sums = {"cp_errors": 6, "cp_length": 24, "der_missed": 1.0, "der_false_alarm": 0.5,
            "der_confusion": 0.5, "der_scored": 8.0, "s": 1, "i_lex": 1, "d_lex": 0,
            "n_ref": 4, "utterances_misattributed": 1, "utterances_attributable": 0}  # fmt: skip
    assert BY_NAME["cpwer"].rate(sums) == 0.25 and BY_NAME["der"].rate(sums) == 0.25
    assert BY_NAME["e_lex"].rate(sums) == 0.5 and BY_NAME["e_attr"].rate(sums) is None
    assert [m.name for m in COMPARED] == ["der", "cpwer", "tcpwer", "wer", "e_lex", "e_seg",
                                          "e_attr"]  # fmt: skip
    assert all(set(m.statistics) for m in METRICS) and len(BY_NAME) == len(METRICS)
