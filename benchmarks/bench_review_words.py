"""The review site's word view on a 160-minute unit: its cost in scoring, its size, its page load.

A 160-minute, 14-speaker session (``long_transcripts.py``: real AMI turn-taking, generated
tokens, a hypothesis with 12 % substitutions, 5 % deletions, jittered times, relabelled
speakers) is scored twice in this process: without the word view (the reference run) and with
it (what ``msbench evaluate`` does); the ratio is the word view's cost. Its JSON is then put in
place of the first unit of a built review site (``--site``, e.g. the demo's
``results/review``; a copy is changed) and the recording page is opened in headless Chromium:
seconds from navigation to the first words drawn, the word nodes in the page (drawn near the
view only), the seconds to jump to the middle of the unit and draw there, and the JS heap.

    python benchmarks/bench_review_words.py --site results/review
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from long_transcripts import write_session  # noqa: E402


def scored(ref: Path, hyp: Path, with_word_view: bool) -> tuple[float, object]:
    from msbench.io.read import read_segments
    from msbench.scoring.pair import score_session

    reference, hypothesis = read_segments(ref, "stm"), read_segments(hyp, "stm")
    session = reference[0].session_id
    assert {s.session_id for s in [*reference, *hypothesis]} == {session}
    end = max(s.end_time for s in [*reference, *hypothesis])
    began = time.perf_counter()
    scores = score_session(
        reference, hypothesis, [(0.0, end)], session, 0.25, with_word_view=with_word_view
    )
    return time.perf_counter() - began, scores


def page_load(site: Path, view: dict, out: Path) -> dict[str, float]:
    from selenium.webdriver.common.by import By

    from tests.helpers.browser import chromium, wait_for

    copy = out / "site"
    shutil.copytree(site, copy)
    index = json.loads((copy / "data/index.js").read_text().split("=", 1)[1].rstrip(";\n"))
    recording = index["recordings"][0]
    data = json.loads(
        (copy / f"data/{recording['slug']}.js").read_text().split("=", 1)[1].rstrip(";\n")
    )
    system = data["systems"][0]
    unit = system["units"][0]["unit_id"]
    script = copy / system["alignments"][unit]
    key = json.dumps(f"{system['id']}/{unit}")
    end = max(w["end"] for w in [*view["reference"], *view["hypothesis"]])
    text = json.dumps({"unit_id": unit, "start": 0.0, "end": end, **view}, separators=(",", ":"))
    script.write_text(
        f"window.MSBENCH_ALIGNMENTS = window.MSBENCH_ALIGNMENTS || {{}};\n"
        f"window.MSBENCH_ALIGNMENTS[{key}] = {text};\n"
    )
    browser = chromium(out / "downloads")
    try:
        page = (copy / "recordings" / f"{recording['slug']}.html").as_uri()
        began = time.perf_counter()
        browser.get(f"{page}#system={system['id']}&unit={unit}")
        wait_for(lambda: browser.find_elements(By.CSS_SELECTOR, "#word-lanes .w"), 120, "words")
        load = time.perf_counter() - began
        nodes = len(browser.find_elements(By.CSS_SELECTOR, "#word-lanes .w"))
        began = time.perf_counter()
        browser.execute_script(
            "var w = document.getElementById('word-lanes-wrap');"
            "w.scrollLeft = w.scrollWidth / 2; w.dispatchEvent(new Event('scroll'));"
        )
        wait_for(
            lambda: browser.execute_script(
                "var w = document.getElementById('word-lanes-wrap');"
                "return Array.from(document.querySelectorAll('#word-lanes .w')).some(function (n) {"
                " return Math.abs(parseFloat(n.style.left) - w.scrollLeft) < w.clientWidth; });"
            ),
            60,
            "words at the middle",
        )
        jump = time.perf_counter() - began
        heap = browser.execute_script(
            "return performance.memory ? performance.memory.usedJSHeapSize : 0"
        )
    finally:
        browser.quit()
    return {
        "load_s": load,
        "word_nodes": nodes,
        "jump_s": jump,
        "heap_mb": heap / 1e6,
        "script_mb": script.stat().st_size / 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--site", type=Path, required=True, help="a built review site (results/review)"
    )
    parser.add_argument("--minutes", type=float, default=160)
    parser.add_argument("--speakers", type=int, default=14)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        ref, hyp, tokens = write_session(out / "session", args.minutes, args.speakers)
        plain, _ = scored(ref, hyp, False)
        viewed, scores = scored(ref, hyp, True)
        view = scores.word_view  # type: ignore[attr-defined]
        assert view is not None and view["problem"] is None, view and view.get("problem")
        words = len(view["reference"]) + len(view["hypothesis"])
        print(
            f"{args.minutes:.0f} min, {args.speakers} speakers, {tokens} reference tokens, {words} words shown"
        )
        print(
            f"scoring without the word view {plain:.1f} s, with it {viewed:.1f} s (ratio {viewed / plain:.2f})"
        )
        page = page_load(args.site, view, out)
        print(
            f"word view script {page['script_mb']:.1f} MB; page: first words drawn in {page['load_s']:.2f} s, "
            f"{page['word_nodes']} word nodes in the page, jump to the middle drawn in {page['jump_s']:.2f} s, "
            f"JS heap {page['heap_mb']:.0f} MB"
        )


if __name__ == "__main__":
    main()
