"""The review site's data: reproducible audio, exact lanes, candidates, verbatim exports."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from msbench.audio import read_channel
from msbench.construction.replacement import replacement_groups
from msbench.review.build import benchmark_lines
from msbench.review.ogg import fixed_serial
from msbench.review.page_audio import encode, page_window
from msbench.review.recording import closest_candidates, reference_lanes
from msbench.tables import csv_text
from tests.helpers.paths import DEMO


def ogg_pages(data: bytes) -> list[bytes]:
    pages, position = [], 0
    while position < len(data):
        segments = data[position + 26]
        length = 27 + segments + sum(data[position + 27 : position + 27 + segments])
        pages.append(data[position : position + length])
        position += length
    return pages


def test_ogg_pages_keep_libsndfile_checksums_and_become_reproducible():
    import io

    import soundfile

    samples, rate = read_channel(DEMO / "ami/audio/dev00.flac")
    raw = io.BytesIO()
    soundfile.write(raw, samples, rate, format="OGG", subtype="OPUS")
    data = raw.getvalue()
    serial = struct.unpack("<I", data[14:18])[0]
    # our CRC equals libsndfile's on every page (an independent implementation)
    assert fixed_serial(data, serial) == data and len(ogg_pages(data)) > 10
    first, second = encode(samples, rate, "opus"), encode(samples, rate, "opus")
    assert first == second
    decoded, decoded_rate = soundfile.read(io.BytesIO(first), dtype="float32")
    assert decoded_rate == rate and abs(len(decoded) - len(samples)) < rate * 0.05
    # 30 s of meeting speech at about 21 kbit/s: the README's size figure
    assert 60_000 < len(first) < 110_000


def rttm_rows(session: str) -> list[dict[str, object]]:
    rows = []
    for line in (DEMO / "ami/annotations/development.rttm").read_text().splitlines():
        fields = line.split()
        if fields[1] == session:
            start, duration = float(fields[3]), float(fields[4])
            rows.append(
                {"speaker": fields[7], "start_time": start, "end_time": round(start + duration, 6)}
            )
    return rows


def frame_masks(rows: list[dict[str, object]], end: float) -> tuple[np.ndarray, np.ndarray]:
    """Per millisecond: how many distinct speakers talk, and whether anyone does (brute force)."""
    frames = int(round(end * 1000))
    active = {}
    for row in rows:
        mask = active.setdefault(row["speaker"], np.zeros(frames, dtype=bool))
        mask[
            int(round(float(row["start_time"]) * 1000)) : int(round(float(row["end_time"]) * 1000))
        ] = True
    count = np.sum(list(active.values()), axis=0)
    return count, count > 0


@pytest.mark.parametrize("session", ["dev00", "dev01"])
def test_overlap_shading_and_switches_agree_with_a_frame_count(session: str):
    rows = rttm_rows(session)
    lanes = reference_lanes(rows, (0.0, 30.0))
    count, speech = frame_masks(rows, 30.0)
    shaded = np.zeros_like(speech)
    for start, end in lanes["overlaps"]:
        shaded[int(round(start * 1000)) : int(round(end * 1000))] = True
    assert np.array_equal(shaded, count >= 2) and shaded.any()
    assert lanes["switches"], "the demo clips have speaker changes"
    for before, after in lanes["switches"]:
        assert not speech[int(round(before * 1000)) : int(round(after * 1000))].any()
        ending = {r["speaker"] for r in rows if float(r["end_time"]) == before}
        starting = {r["speaker"] for r in rows if float(r["start_time"]) == after}
        assert ending and starting and ending != starting
    assert len(lanes["segments"]) == len(rows) and lanes["speakers"] == sorted(
        {r["speaker"] for r in rows}
    )


def test_an_excerpt_clips_lanes_to_the_window_in_page_time():
    rows = rttm_rows("dev00")
    window = page_window(30.0, min(float(r["start_time"]) for r in rows), 10.0)
    lanes = reference_lanes(rows, window)
    assert window == (1.0, 11.0)
    assert all(0 <= s["start"] < s["end"] <= 10.0 for s in lanes["segments"])
    assert all(0 <= a < b <= 10.0 for a, b in lanes["overlaps"])


def pool_row(rid: str, profile: str) -> dict[str, object]:
    labels = dict(zip("POSTN", profile.split("-"), strict=True))
    return {"recording_id": rid, "profile": profile, "source_dataset": "x", "duration_seconds": 600.0,
            "conditions": labels, **labels}  # fmt: skip


def test_candidates_open_with_the_neighbourhood_the_next_run_chooses_from():
    failed = pool_row("x::q", "P1-O2-S0-T1-N2")
    pool = [pool_row(f"x::{i}", p) for i, p in enumerate(
        ["P1-O2-S0-T1-N1", "P1-O2-S0-T1-N3", "P1-O1-S0-T1-N2", "P3-O2-S0-T1-N2", "P1-O2-S1-T0-N2"]
    )] + [failed]  # fmt: skip
    listed = closest_candidates(failed, pool, {"x::q"}, 5)
    neighbourhood, _ = replacement_groups([failed], pool, {"x::q"})[0]
    nearest = [
        c["recording_id"]
        for c in listed
        if (c["hamming"], c["ordinal"]) == (listed[0]["hamming"], listed[0]["ordinal"])
    ]
    assert nearest == neighbourhood == ["x::0", "x::1", "x::2"]
    assert [c["recording_id"] for c in listed][3:] == ["x::3", "x::4"]  # 1 axis, 2 steps; 2 axes


def test_the_export_writes_benchmark_rows_back_verbatim():
    rows = [
        {"recording_id": "ami::trñ00", "profile": "P1-O2", "U": 0.352964, "replaces": None},
        {"recording_id": "x::a,b", "profile": "P0-O1", "U": 0.1, "replaces": "ami::dev01"},
    ]
    text = csv_text(rows, ["recording_id", "profile", "U", "replaces"])
    header, lines = benchmark_lines(text)
    assert "\n".join([header, *lines.values()]) + "\n" == text
    assert list(lines) == ["ami::trñ00", "x::a,b"]
    with pytest.raises(ValueError, match="multi-line or ragged"):
        benchmark_lines('recording_id,reason\nx::a,"two\nlines"\n')


def test_the_probe_quality_page_shows_each_reader_per_task_and_the_drops():
    """probes.html from a probe set's probe_summary.json: readers with intervals, above chance marked."""
    from msbench.review.pages import index_page
    from msbench.review.probe_quality import probe_quality_page

    summary = {
        "items": 18, "clips": 7, "text_only_policy": "drop",
        "text_only_accuracy": {
            "VCA/none": {"items": 3, "chance": 0.3056, "longest_span": 0.3056,
                         "transcript_latest": 0.3333,
                         "interval_95": {"longest_span": [0.06, 0.79],
                                         "transcript_latest": [0.06, 0.79]}},
        },
        "dropped": {"VCD: text-only: nearest_boundary would be above chance": 1,
                    "IR: repeats the options and answer of another item": 5},
    }  # fmt: skip
    page = probe_quality_page(summary)
    assert "<td>VCA/none</td><td>3</td><td>0.306</td><td>transcript_latest</td>" in page
    assert '<tr class="above"><td>VCA/none</td>' in page and "[0.060, 0.790]" in page
    assert "<td>IR: repeats the options and answer of another item</td><td>5</td>" in page
    assert 'href="probes.html"' in index_page(probes=True)
    assert "probes.html" not in index_page()


HOSTILE = "<img src=x onerror=alert(1)>"


def test_probe_items_and_results_pages_escape_what_they_show(tmp_path):
    """Static pages: a question, an option, a system name or a condition holding markup is
    text (escaped), never markup; the answer sits in a closed <details>; a missing family is
    named; each results row links to the index with its system and condition range."""
    from msbench import catalog
    from msbench.review.probe_items import probe_items_page
    from msbench.review.results_page import results_page

    item = {"question_id": "c__VCD01", "subtaxonomy": "VCD", "task_name": "change",
            "overlap": "nonoverlap", "recording_id": "r", "clip_start": 0.0, "clip_end": 30.0,
            "question": f"Who said {HOSTILE}?", "options": [HOSTILE, "at 00:02.0"],
            "answer_idx": 1, "text_only": {"nearest_boundary": 0.5}}  # fmt: skip
    page = probe_items_page({"clips": 1}, [item], {"c__VCD01": "probes/c.opus"})
    assert HOSTILE not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert '<details><summary>Show the answer</summary><p class="answer">B: at 00:02.0' in page
    assert "No item of VL, VC, VCA, CVA, TR, QR, IR" in page
    assert '<audio controls preload="none" src="probes/c.opus">' in page
    evaluation = tmp_path / "evaluation"
    (evaluation / "compare").mkdir(parents=True)

    def table(declared, path, values):
        import csv

        columns = list(declared.columns)
        with path.open("w", encoding="utf-8", newline="") as handle:
            out = csv.DictWriter(handle, columns)
            out.writeheader()
            out.writerow({c: values.get(c, "0") for c in columns})

    table(catalog.BY_CONDITION, evaluation / "by_condition.csv",
          {"system": "sys", "group": "P", "value": HOSTILE})  # fmt: skip
    table(catalog.LEADERBOARD_VIEWS, evaluation / "leaderboard_views.csv",
          {"view": "release", "system_id": "sys", "system": HOSTILE, "rank_group": "a",
           "der": "41.26", "der_low": "25.88", "der_high": "55.26"})  # fmt: skip
    page = results_page(evaluation, {"P": ["P0", "P1"]}, tmp_path / "site")
    assert HOSTILE not in page
    assert "41.26 [25.88, 55.26]" in page
    assert 'href="index.html#system=sys&amp;P=%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E"' in page
