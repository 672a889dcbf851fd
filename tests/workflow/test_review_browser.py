"""The review site in a real headless Chromium: list, listen, mark a failure, export, re-run.

The whole QC round of the README on the demo: the exported benchmark.csv and
qc_rejected.tsv go back into the workflow as ``selection.keep`` and
``selection.qc_rejected``, and the next selection replaces the failed recording.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.browser import ARTEFACTS, chromium, downloaded, page_errors, wait_for
from tests.helpers.workflow import snakemake

pytestmark = pytest.mark.slow


@pytest.fixture
def browser(tmp_path: Path) -> Any:
    driver = chromium(tmp_path / "downloads")
    yield driver
    driver.quit()


def benchmark_ids(path: Path) -> list[str]:
    with path.open(encoding="utf-8", newline="") as stream:
        return [row["recording_id"] for row in csv.DictReader(stream)]


def test_index_lists_every_recording_offline(demo_run: Path, browser: Any):
    from selenium.webdriver.common.by import By

    site = demo_run / "results/review"
    browser.get((site / "index.html").as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, "#recordings tbody tr")
    expected = benchmark_ids(demo_run / "results/manifests/benchmark.csv")
    assert [r.get_attribute("data-recording") for r in rows] == expected
    assert all(r.find_element(By.CSS_SELECTOR, "td.qc-unreviewed") for r in rows)
    # sorting by a header orders the rows by that feature
    browser.find_element(By.CSS_SELECTOR, "th[data-key=overlap_ratio]").click()
    shown = [
        r.get_attribute("data-recording")
        for r in browser.find_elements(By.CSS_SELECTOR, "#recordings tbody tr")
    ]
    index = json.loads(
        browser.execute_script("return JSON.stringify(window.MSBENCH_INDEX.recordings)")
    )
    overlap = {r["recording_id"]: r["overlap_ratio"] for r in index}
    assert [overlap[r] for r in shown] == sorted(overlap[r] for r in expected)
    # filters: a source, and the pool toggle shows the candidates outside the selection
    browser.find_element(By.CSS_SELECTOR, "#filter-source option[value=two_speaker]").click()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#recordings tbody tr")) == 1
    browser.find_element(By.CSS_SELECTOR, "#filter-source option[value='']").click()
    browser.find_element(By.ID, "show-pool").click()
    pool = browser.find_elements(By.CSS_SELECTOR, "#recordings tbody tr.pool")
    assert len(pool) == sum(not r["selected"] for r in index) > 0
    images = browser.find_elements(By.CSS_SELECTOR, "#figures img")
    assert len(images) == 2 and all(
        browser.execute_script("return arguments[0].naturalWidth", i) > 500 for i in images
    )
    assert page_errors(browser) == []
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    browser.find_element(By.ID, "show-pool").click()
    browser.save_screenshot(str(ARTEFACTS / "review_index.png"))


def open_recording(browser: Any, site: Path, recording_id: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get((site / "index.html").as_uri())
    browser.find_element(By.LINK_TEXT, recording_id).click()
    wait_for(
        lambda: browser.find_elements(By.CSS_SELECTOR, "#timeline rect.segment"), what="timeline"
    )


def test_a_segment_plays_and_the_system_view_marks_errors(demo_run: Path, browser: Any):
    from selenium.webdriver.common.by import By

    site = demo_run / "results/review"
    benchmark = (demo_run / "results/manifests/benchmark.csv").read_text(encoding="utf-8")
    with_overlap = max(
        csv.DictReader(benchmark.splitlines()), key=lambda r: float(r["overlap_ratio"])
    )
    open_recording(browser, site, with_overlap["recording_id"])
    data = browser.execute_script("return window.MSBENCH_RECORDING")
    assert data["overlaps"], "the most overlapped demo recording shades its overlaps"
    segments = browser.find_elements(By.CSS_SELECTOR, "#timeline rect.segment")
    assert len(segments) == len(data["segments"]) > 0
    assert len(browser.find_elements(By.CSS_SELECTOR, "#timeline rect.overlap")) == len(
        data["overlaps"]
    )
    longest = max(
        range(len(segments)),
        key=lambda i: data["segments"][i]["end"] - data["segments"][i]["start"],
    )
    start = data["segments"][longest]["start"]
    segments[longest].click()
    player = browser.find_element(By.ID, "player")
    moved = wait_for(
        lambda: browser.execute_script("return arguments[0].currentTime", player) > start + 0.3,
        what="playback",
    )
    assert moved
    assert browser.execute_script("return arguments[0].paused", player) is False
    words = browser.find_element(By.ID, "words").text
    assert data["segments"][longest]["words"].split()[0] in words
    browser.find_element(By.CSS_SELECTOR, "#system option[value=baseline]").click()
    hypothesis = browser.find_elements(By.CSS_SELECTOR, "#timeline rect.hyp")
    view = data["systems"][0]
    assert len(hypothesis) == len(view["hyp_segments"]) > 0
    marked = browser.find_elements(By.CSS_SELECTOR, "#timeline rect.mark")
    assert len(marked) == sum(m["mark"] != "correct" for m in view["marks"]) > 0
    scores = browser.find_element(By.ID, "unit-scores").text
    assert with_overlap["recording_id"].replace("::", "__") in scores
    assert any(status in scores for status in ("scored", "degraded"))
    assert page_errors(browser) == []
    browser.save_screenshot(str(ARTEFACTS / "review_recording.png"))


def mark(browser: Any, verdicts: dict[str, str], reasons: dict[str, str]) -> None:
    from selenium.webdriver.common.by import By

    for check, verdict in verdicts.items():
        browser.find_element(By.ID, f"{check}-{verdict}").click()
    for check, reason in reasons.items():
        browser.find_element(By.ID, f"{check}-reason").send_keys(reason)


def _review_two(browser: Any, site: Path, failed: str, passed: str) -> list[str]:
    """Pass one recording's four checks, fail another's speaker check; its candidates."""
    from selenium.webdriver.common.by import By

    checks = ("audio_integrity", "transcript", "speaker_annotation", "timestamps")
    open_recording(browser, site, passed)
    mark(browser, dict.fromkeys(checks, "pass"), {})
    assert browser.find_element(By.ID, "status").text == "passed"
    open_recording(browser, site, failed)
    verdicts = {**dict.fromkeys(checks, "pass"), "speaker_annotation": "fail"}
    mark(browser, verdicts, {"speaker_annotation": "speaker at 12 s missing"})
    assert (
        browser.find_element(By.ID, "status").text
        == "failed: speaker annotation: speaker at 12 s missing"
    )
    candidates = [
        c.text.split(" · ")[0] for c in browser.find_elements(By.CSS_SELECTOR, "#candidates li")
    ]
    assert candidates and browser.find_element(By.ID, "candidates").is_displayed()
    return candidates


def _export(browser: Any, downloads: Path, work: Path, failed: str) -> tuple[Path, Path]:
    """Export from the index: the accepted benchmark.csv (rows verbatim) and qc_rejected.tsv."""
    from selenium.webdriver.common.by import By

    browser.find_element(By.ID, "back").click()
    row = browser.find_element(By.CSS_SELECTOR, f"tr[data-recording='{failed}'] td.qc-failed")
    assert "speaker at 12 s missing" in row.text
    assert "2 of" in browser.find_element(By.ID, "progress").text
    browser.find_element(By.ID, "export-benchmark").click()
    browser.find_element(By.ID, "export-rejected").click()
    kept = downloaded(downloads, "benchmark.csv")
    rejected = downloaded(downloads, "qc_rejected.tsv")
    original = (work / "results/manifests/benchmark.csv").read_text(encoding="utf-8")
    assert kept.read_text(encoding="utf-8") == "".join(
        line for line in original.splitlines(True) if not line.startswith(f"{failed},")
    )
    assert (
        rejected.read_text(encoding="utf-8")
        == f"{failed}\tspeaker annotation: speaker at 12 s missing\n"
    )
    return kept, rejected


def test_review_export_and_rerun_replaces_the_failed_recording(
    demo_run: Path, browser: Any, tmp_path: Path
):
    work = tmp_path / "work"
    shutil.copytree(demo_run, work, symlinks=True)
    selected = benchmark_ids(work / "results/manifests/benchmark.csv")
    failed = selected[0]
    candidates = _review_two(browser, work / "results/review", failed, selected[1])
    kept, rejected = _export(browser, tmp_path / "downloads", work, failed)
    # the exported files, as the README's QC round puts them, go back into the workflow
    shutil.copy(kept, work / "config/accepted_benchmark.csv")
    shutil.copy(rejected, work / "config/qc_rejected.tsv")
    override = work / "qc.yaml"
    override.write_text(
        "selection:\n  keep: config/accepted_benchmark.csv\n  qc_rejected: config/qc_rejected.tsv\n"
    )
    target = "results/manifests/selection_report.json"
    snakemake(work, "--cores", "2", target, configfiles=(str(override),))
    report = json.loads((work / target).read_text())
    assert [r["rejected"] for r in report["replacements"]] == [failed]
    replacement = report["replacements"][0]["replacement"]
    now = benchmark_ids(work / "results/manifests/benchmark.csv")
    assert replacement and replacement not in selected and replacement in now and failed not in now
    assert set(selected) - {failed} <= set(now)
    assert replacement in candidates  # the page listed the candidate the run chose
