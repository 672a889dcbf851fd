"""The benchmark and the probe set as Hugging Face datasets: parquet shards and a dataset card.

``hf/benchmark/`` holds one row per inference unit: its audio (the unit's
16 kHz FLAC, bytes inside the parquet), its reference segments (recording
time), its condition labels and features, source, language and licence.
``hf/probes/`` holds the probe set in HEAR's own fields (``question_id``,
``clip_id``, ``source_corpus``, ``taxonomy``, ``subtaxonomy``, ``task_name``,
``overlap``, ``question``, ``options``, ``answer_idx``) and each item's audio,
so HEAR's ``build_input`` runs on it as on the Hub's copy. Each folder has a
``README.md`` card with the YAML header the Hub reads (licence, languages,
task categories, size) and the licence ledger;
``datasets.load_dataset(folder, split="test")`` loads it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from msbench.export.bundle import CONDITION_FIELDS, Bundle
from msbench.export.ids import export_id
from msbench.export.licences import licence_lines, restricted
from msbench.textio import write_atomic

#: Language names as the manifests write them -> ISO 639-1 codes for the card's header.
LANGUAGE_CODES = {
    "English": "en",
    "Chinese": "zh",
    "Mandarin": "zh",
    "Cantonese": "yue",
    "Japanese": "ja",
    "Korean": "ko",
    "French": "fr",
    "German": "de",
    "Spanish": "es",
    "Portuguese": "pt",
    "Italian": "it",
    "Russian": "ru",
    "Thai": "th",
    "Vietnamese": "vi",
    "Arabic": "ar",
}
SHARD = "data/test-00000-of-00001.parquet"


def _card(
    title: str,
    body: list[str],
    rows: int,
    languages: Sequence[str],
    tasks: Sequence[str],
    ledger: list[str],
) -> str:
    codes = sorted({LANGUAGE_CODES.get(name, name.lower()) for name in languages})
    size = "n<1K" if rows < 1000 else "1K<n<10K" if rows < 10_000 else "10K<n<100K"
    header = {
        "license": "other",
        "license_name": "per-source (see Licences)",
        "language": codes,
        "task_categories": list(tasks),
        "size_categories": [size],
        "configs": [{"config_name": "default", "data_files": [{"split": "test", "path": SHARD}]}],
    }
    import yaml

    text = "---\n" + yaml.safe_dump(header, sort_keys=False, allow_unicode=True) + "---\n\n"
    text += f"# {title}\n\n" + "\n".join(body) + "\n\n## Licences\n\n" + "\n".join(ledger)
    citation = (
        "\n\n## Citation\n\nBuilt with msbench (condition-stratified multi-speaker benchmarks); "
        "cite MS-Bench and each source corpus you use.\n"
    )
    return text + citation


def _write(rows: list[dict[str, Any]], features: Any, folder: Path) -> None:
    from datasets import Dataset
    from datasets.utils.logging import disable_progress_bar

    disable_progress_bar()
    (folder / "data").mkdir(parents=True, exist_ok=True)
    Dataset.from_list(rows, features=features).to_parquet(str(folder / SHARD))


def benchmark_rows(bundle: Bundle, include_restricted: bool = False) -> list[dict[str, Any]]:
    """One row per unit; a restricted source's audio is None unless ``include_restricted``."""
    rows = []
    selected = {r["recording_id"]: r for r in bundle.selected}
    for unit in bundle.units:
        row = selected[unit.recording_id]
        flac = bundle.unit_audio / f"{unit.unit_id}.flac"
        licence, citation = bundle.licences.get(str(row["source_dataset"]), ("", ""))
        kept = include_restricted or not restricted(licence)
        rows.append(
            {
                "unit_id": export_id(unit.unit_id),
                "recording_id": export_id(unit.recording_id),
                "audio": {"bytes": flac.read_bytes(), "path": flac.name} if kept else None,
                "start": unit.start,
                "end": unit.end,
                "segments": [
                    {
                        "speaker": export_id(u.speaker),
                        "start_time": u.start,
                        "end_time": u.end,
                        "words": u.words,
                    }
                    for u in bundle.unit_utterances(unit)
                ],
                "source": str(row["source_dataset"]),
                "language": str(row.get("language") or ""),
                "licence": licence,
                "citation": citation,
                "conditions": json.dumps(bundle.conditions(unit.recording_id)),
            }
        )
    return rows


def benchmark_features() -> Any:
    """The benchmark dataset's ``datasets.Features``: one row per unit with its 16 kHz audio."""
    from datasets import Audio, Features, Value

    text, number = Value("string"), Value("float64")
    segment = {k: number if k.endswith("time") else text
               for k in ("speaker", "start_time", "end_time", "words")}  # fmt: skip
    return Features(
        {"unit_id": text, "recording_id": text, "audio": Audio(16000), "start": number,
         "end": number, "segments": [segment], "source": text, "language": text,
         "licence": text, "citation": text, "conditions": text}
    )  # fmt: skip


def export_hf(
    bundle: Bundle,
    out: Path,
    probes: Path | None = None,
    coverage: Path | None = None,
    include_restricted: bool = False,
) -> list[Path]:
    """Write ``out/benchmark`` (and ``out/probes`` when a probe folder is given); ``coverage``:
    the run's coverage figure, shown on the card. Audio of a source whose licence forbids
    redistribution (:func:`msbench.export.bundle.restricted`) is left out (``None``), its
    references kept, unless ``include_restricted``."""
    rows = benchmark_rows(bundle, include_restricted)
    _write(rows, benchmark_features(), out / "benchmark")
    if coverage is not None and coverage.is_file():
        (out / "benchmark" / "coverage.png").write_bytes(coverage.read_bytes())
    sources = sorted({r["source"] for r in rows})
    body = [
        f"{len(rows)} inference units of {len(bundle.selected)} recordings. Each row: the "
        "unit's 16 kHz audio, its reference segments (recording time; speakers namespaced "
        "`<source>::<session>::<label>`), and `conditions` (JSON: the profile, its five "
        f"labels and features: {', '.join(CONDITION_FIELDS)}).",
        "",
        "How it was built: every annotated recording of the sources below was characterised on "
        "five axes (speakers, overlap ratio, turn interval, speaker similarity, acoustic "
        "quality), binned into condition profiles, and the benchmark selected by an integer "
        "program maximising U = 0.40 C + 0.25 M + 0.20 D + 0.15 R (the run's "
        "selection_report.json says how close to optimal).",
        "",
        "![coverage](coverage.png)" if (out / "benchmark" / "coverage.png").exists() else "",
    ]
    ledger = licence_lines(sources, bundle.licences)
    languages = [r["language"] for r in rows]
    card = _card(
        "msbench benchmark", body, len(rows), languages, ["automatic-speech-recognition"], ledger
    )
    write_atomic(out / "benchmark" / "README.md", card)
    written = [out / "benchmark" / SHARD, out / "benchmark" / "README.md"]
    if probes is not None:
        written += export_probes(
            probes, out / "probes", bundle.licences, languages, include_restricted
        )
    return written


def export_probes(
    probes: Path,
    out: Path,
    licences: dict[str, tuple[str, str]],
    languages: list[str],
    include_restricted: bool = False,
) -> list[Path]:
    """The probe set in HEAR's fields, its audio inside the parquet; a clip of a source whose
    licence is not on the allow-list (:mod:`msbench.export.licences`) has no audio unless
    ``include_restricted``, as the benchmark's units."""
    from datasets import Audio, Features, Sequence, Value

    from msbench.catalog import HEAR_ITEMS
    from msbench.probes.hear import HEAR_FIELDS
    from msbench.tables import read_rows

    rows = []
    for item in read_rows(HEAR_ITEMS, probes / HEAR_ITEMS.name):
        audio = probes / item["audio_path"]
        row = {k: item[k] for k in HEAR_FIELDS if k != "audio_path"}
        licence = licences.get(str(item["source_corpus"]), ("", ""))[0]
        kept = include_restricted or not restricted(licence)
        sound = {"bytes": audio.read_bytes(), "path": audio.name} if kept else None
        rows.append({**row, "audio": sound})
    text = {
        k: Value("string") for k in HEAR_FIELDS if k not in ("options", "answer_idx", "audio_path")
    }
    features = Features(
        {
            **text,
            "options": Sequence(Value("string")),
            "answer_idx": Value("int64"),
            "audio": Audio(),
        }
    )
    _write(rows, features, out)
    ledger = licence_lines(sorted({str(r["source_corpus"]) for r in rows}), licences)
    body = [
        f"{len(rows)} speaker-attribution items in HEAR's fields; HEAR's runner reads it as "
        "it reads the Hub's copy (`load_dataset(folder, split='test')`)."
    ]
    card = _card(
        "msbench probe set (HEAR fields)",
        body,
        len(rows),
        languages,
        ["audio-classification"],
        ledger,
    )
    write_atomic(out / "README.md", card)
    return [out / SHARD, out / "README.md"]
