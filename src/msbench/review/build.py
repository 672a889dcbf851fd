"""Write the review site: ``index.html``, one page per recording, data, audio, assets, figures.

Layout (all links relative, so the folder can be copied anywhere)::

    index.html                  every selected recording (and the pool, behind a toggle)
    recordings/<slug>.html      one page per selected recording
    data/index.js, data/<slug>.js   the pages' data (window.MSBENCH_INDEX / _RECORDING)
    audio/<slug>.opus           the page's audio (review.audio_format)
    assets/review.js, review.css
    figures/*.png               the coverage figures
    results.html                the leaderboard, the comparison, Table 2, by condition
    alignments/<system>/<unit>.json, .js   each scored unit's word view
    probes.html, probes/<id>.opus   every probe item with its clip (when the run made probes)
    probe_quality.html          text-only readers per task, drafts left out

A recording page opens for a system (and a second one beside it) from its URL:
``recordings/<slug>.html#system=<id>&compare=<id>&view=tcp``; the index with a system's
scores and a condition range: ``index.html#system=<id>&P=P2``.

The site is built in a sibling temporary folder and moved into place, so a
reader never sees half a site. Its key (``site_key``, a hash of benchmark.csv)
names the browser storage of the review's progress: a new selection starts a
new review.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from msbench.construction.condition_space import AXIS_ORDER, ConditionSpace
from msbench.metrics import COMPARED, site_metrics
from msbench.review import pages
from msbench.review.page_audio import SUFFIXES, clip_audio, page_audio, page_window
from msbench.review.probe_items import probe_items_page, read_items
from msbench.review.probe_quality import probe_quality_page
from msbench.review.recording import (
    closest_candidates,
    feature_rows,
    reference_lanes,
    slug,
)
from msbench.review.results_page import results_page
from msbench.review.system_view import SystemView, system_view
from msbench.review.word_alignments import copy_word_views
from msbench.textio import atomic_folder

INDEX_FIELDS = (
    "recording_id",
    "source_dataset",
    "duration_seconds",
    "profile",
    *AXIS_ORDER,
    "num_speakers",
    "overlap_ratio",
    "speaker_similarity_max",
    "speaker_switch_q25",
    "noise_difficulty",
    "replaces",
)
CHECKS = (
    ("audio_integrity", "Audio integrity"),
    ("transcript", "Transcript"),
    ("speaker_annotation", "Speaker annotation"),
    ("timestamps", "Timestamps"),
)


@dataclass
class SiteInputs:
    benchmark_text: str  # benchmark.csv verbatim: the page's export writes its lines back
    benchmark: Sequence[Mapping[str, Any]]
    recordings: Sequence[Mapping[str, Any]]
    utterances: Sequence[Mapping[str, Any]]
    pool: Sequence[Mapping[str, Any]]
    space: ConditionSpace
    figures: Sequence[Path] = ()
    systems: Sequence[SystemView] = field(default_factory=list)
    probes: Mapping[str, Any] | None = None  # the probe set's probe_summary.json
    probes_dir: Path | None = None  # its folder (items.jsonl, audio/)
    results: Path | None = None  # results/evaluation (leaderboard, comparison, Table 2)


def load_inputs(
    benchmark: Path,
    recordings: Path,
    utterances: Path,
    pool: Path,
    condition_space: Path,
    figures: Sequence[Path],
    systems: Sequence[Mapping[str, Any]],
    evaluations: Sequence[Path],
    probes: Path | None = None,
    results: Path | None = None,
) -> SiteInputs:
    """Read what the site shows; each system entry needs its evaluation folder (same order)."""
    from msbench.catalog import BENCHMARK, CANDIDATES, RECORDINGS, UTTERANCES
    from msbench.construction.condition_space import read_condition_space
    from msbench.errors import InputError
    from msbench.review.system_view import load_system_view
    from msbench.tables import read_rows
    from msbench.textio import read_checked, read_json

    if len(systems) != len(evaluations):
        raise InputError("--evaluations", f"{len(evaluations)} folders for {len(systems)} systems")
    return SiteInputs(
        benchmark_text=read_checked(benchmark),
        benchmark=[dict(row) for row in read_rows(BENCHMARK, benchmark)],
        recordings=[dict(row) for row in read_rows(RECORDINGS, recordings)],
        utterances=[dict(row) for row in read_rows(UTTERANCES, utterances)],
        pool=read_rows(CANDIDATES, pool),
        space=read_condition_space(condition_space),
        figures=[Path(f) for f in figures],
        systems=[load_system_view(e, Path(d)) for e, d in zip(systems, evaluations, strict=True)],
        probes=read_json(probes) if probes else None,
        probes_dir=Path(probes).parent if probes else None,
        results=Path(results) if results else None,
    )


def script(name: str, value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return f"window.{name} = {text};\n"


def benchmark_lines(text: str) -> tuple[str, dict[str, str]]:
    """benchmark.csv's header and each recording's line, verbatim (the export writes them back)."""
    import csv

    lines = text.splitlines()
    rows = list(csv.reader(lines))
    if any(len(line) != len(rows[0]) for line in rows) or len(rows) != len(lines):
        raise ValueError("benchmark.csv has a multi-line or ragged row")
    column = rows[0].index("recording_id")
    return lines[0], {row[column]: line for row, line in zip(rows[1:], lines[1:], strict=True)}


def index_data(inputs: SiteInputs, settings: Mapping[str, Any]) -> dict[str, Any]:
    header, lines = benchmark_lines(inputs.benchmark_text)
    selected = [r for r in inputs.recordings if r["recording_id"] in lines]
    selected.sort(key=lambda r: list(lines).index(r["recording_id"]))
    benchmark_rows = {r["recording_id"]: r for r in inputs.benchmark}
    rows = [_index_row(r, benchmark_rows.get(r["recording_id"], {}), True) for r in selected]
    if settings["pool"]:
        rows += [_index_row(r, {}, False) for r in inputs.pool if r["recording_id"] not in lines]
    return {
        "site_key": hashlib.sha1(inputs.benchmark_text.encode("utf-8")).hexdigest()[:12],
        "recordings": rows,
        "benchmark_header": header,
        "benchmark_lines": lines,
        "checks": [list(c) for c in CHECKS],
        "axes": {
            axis.name: [r["label"] for r in axis.describe_ranges()] for axis in inputs.space.axes
        },
        "figures": [f"figures/{path.name}" for path in inputs.figures],
        "systems": [{"id": s.system_id, "name": s.name} for s in inputs.systems],
        "metrics": site_metrics(),
        "scores": {s.system_id: recording_scores(s) for s in inputs.systems},
        "results": inputs.results is not None,
        "probes": inputs.probes is not None,
    }


#: The rates the index shows per recording: the compared metrics (msbench.metrics).
SCORE_FIELDS = tuple(m.name for m in COMPARED)


def recording_scores(view: SystemView) -> dict[str, dict[str, Any]]:
    """Each recording's rates (recording_scores.csv: ratios of sums over its units, fractions)
    and its units' status: ``scored``, ``degraded: why`` or ``excluded: why``, joined by ``; ``."""
    out: dict[str, dict[str, Any]] = {}
    for row in view.recordings:
        out[str(row["recording_id"])] = {k: row.get(k) for k in SCORE_FIELDS}
    for unit in view.units:
        entry = out.setdefault(str(unit["recording_id"]), {k: None for k in SCORE_FIELDS})
        status = str(unit["status"])
        why = unit.get("reason") if status == "excluded" else unit.get("degradation")
        text = f"{status}: {why}" if why else status
        entry["status"] = "; ".join(filter(None, [entry.get("status"), text]))
    return out


def _index_row(row: Mapping[str, Any], chosen: Mapping[str, Any], selected: bool) -> dict[str, Any]:
    values = {name: row.get(name) for name in INDEX_FIELDS}
    values["replaces"] = chosen.get("replaces") or None
    return {**values, "slug": slug(str(row["recording_id"])), "selected": selected}


def recording_data(
    row: Mapping[str, Any],
    inputs: SiteInputs,
    selected: set[str],
    settings: Mapping[str, Any],
    site_key: str,
) -> tuple[dict[str, Any], tuple[float, float]]:
    rid = str(row["recording_id"])
    utterances = [u for u in inputs.utterances if u["recording_id"] == rid]
    first = min((float(u["start_time"]) for u in utterances), default=0.0)
    window = page_window(float(row["duration_seconds"]), first, settings["excerpt_seconds"])
    data = {
        "site_key": site_key,
        "recording_id": rid,
        "source": row["source_dataset"],
        "duration_seconds": row["duration_seconds"],
        "profile": row.get("profile"),
        "offset": window[0],
        "length": round(window[1] - window[0], 6),
        "checks": [list(c) for c in CHECKS],
        **reference_lanes(utterances, window),
        "features": feature_rows(row, inputs.space),
        "candidates": closest_candidates(row, inputs.pool, selected, settings["candidates"]),
        "systems": [system_view_data(s, rid, window) for s in inputs.systems],
        "metrics": site_metrics(),
    }
    return data, window


def system_view_data(view: SystemView, rid: str, window: tuple[float, float]) -> dict[str, Any]:
    return {"id": view.system_id, "name": view.name, **system_view(view, rid, window)}


def copy_assets(site: Path, figures: Sequence[Path]) -> None:
    (site / "assets").mkdir()
    folder = resources.files("msbench.review") / "assets"
    for name in ("review.js", "words.js", "review.css"):
        (site / "assets" / name).write_bytes((folder / name).read_bytes())
    (site / "figures").mkdir()
    for figure in figures:
        shutil.copyfile(figure, site / "figures" / figure.name)


def write_site(
    out_dir: Path, inputs: SiteInputs, settings: Mapping[str, Any], force: bool = False
) -> int:
    """Build the whole site into ``out_dir`` (replaced atomically; what it holds that msbench
    did not write is refused, or with ``force`` deleted); the number of pages."""
    with atomic_folder(out_dir, "msbench review", force) as site:
        index = index_data(inputs, settings)
        for name in ("data", "recordings", "audio"):
            (site / name).mkdir()
        copy_assets(site, inputs.figures)
        page = pages.index_page(bool(inputs.probes), inputs.results is not None)
        (site / "index.html").write_text(page, encoding="utf-8")
        if inputs.probes:
            write_probes(site, inputs, settings)
        if inputs.results is not None:
            page = results_page(inputs.results, index["axes"], site)
            (site / "results.html").write_text(page, encoding="utf-8")
        copy_word_views(site, list(inputs.systems))
        (site / "data" / "index.js").write_text(script("MSBENCH_INDEX", index), encoding="utf-8")
        selected = set(index["benchmark_lines"])
        pages_written = 0
        for row in inputs.recordings:
            if row["recording_id"] in selected:
                write_recording(site, row, inputs, selected, settings, index["site_key"])
                pages_written += 1
    return pages_written


def write_probes(site: Path, inputs: SiteInputs, settings: Mapping[str, Any]) -> None:
    """probes.html with every item's clip (re-encoded like the pages' audio), probe_quality.html."""
    assert inputs.probes is not None
    (site / "probe_quality.html").write_text(probe_quality_page(inputs.probes), encoding="utf-8")
    items = read_items(inputs.probes_dir) if inputs.probes_dir else []
    clips: dict[str, str] = {}
    audio_format = settings["audio_format"]
    if audio_format != "none" and inputs.probes_dir is not None:
        (site / "probes").mkdir()
        for item in items:
            source = inputs.probes_dir / str(item["audio_path"])
            if not source.is_file():
                continue
            name = slug(str(item["question_id"])) + SUFFIXES[audio_format]
            (site / "probes" / name).write_bytes(
                clip_audio(source, settings["sample_rate"], audio_format)
            )
            clips[str(item["question_id"])] = f"probes/{name}"
    page = probe_items_page(inputs.probes, items, clips)
    (site / "probes.html").write_text(page, encoding="utf-8")


def write_recording(
    site: Path,
    row: Mapping[str, Any],
    inputs: SiteInputs,
    selected: set[str],
    settings: Mapping[str, Any],
    site_key: str,
) -> None:
    name = slug(str(row["recording_id"]))
    data, window = recording_data(row, inputs, selected, settings, site_key)
    audio_format = settings["audio_format"]
    audio_file = None
    if audio_format != "none":
        audio_file = name + SUFFIXES[audio_format]
        encoded = page_audio(
            row["audio_path"],
            int(row.get("channel") or 0),
            window,
            settings["sample_rate"],
            audio_format,
        )
        (site / "audio" / audio_file).write_bytes(encoded)
    (site / "data" / f"{name}.js").write_text(script("MSBENCH_RECORDING", data), encoding="utf-8")
    page = pages.recording_page(str(row["recording_id"]), name, audio_file)
    (site / "recordings" / f"{name}.html").write_text(page, encoding="utf-8")
