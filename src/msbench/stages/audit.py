"""``msbench audit``: a rebuild's features against a published release's metadata.jsonl."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


def _rejections(features: Path, rejected: Path | None) -> dict[str, str]:
    """Why the rebuild rejected a recording: ``rejected.csv`` (given, or beside the features)."""
    from msbench.tables import read_table

    path = rejected or features.with_name("rejected.csv")
    if not path.exists():
        return {}
    return {
        str(r["recording_id"]): f"rejected by the rebuild: {r['reason']}"
        for r in read_table(path)
        if r.get("recording_id")
    }


def _similarity_study(
    ingested: tuple[Path, ...], joined: Any, resolved: dict[str, Any], space: Any
) -> dict[str, Any] | None:
    variants = resolved["audit"]["similarity_variants"]
    if not variants or not ingested:
        return None
    from msbench.ingest import IngestedRecording
    from msbench.similarity_study import study
    from msbench.textio import read_jsonl

    items = [IngestedRecording.from_dict(row) for path in ingested for row in read_jsonl(path)]
    published = {
        str(p["recording_id"]): float(p["speaker_similarity_max"])
        for p, _ in joined.joined
        if p.get("speaker_similarity_max") is not None
    }
    return study(items, published, variants, resolved, space.axis("S").label)


def audit_markdown(joined: Any, per_axis: list[dict[str, Any]], rows: list[dict[str, Any]]) -> str:
    """The summary table per axis, then every recording's row."""
    from msbench.audit import COMPARISON_COLUMNS
    from msbench.tables import markdown_table

    columns = ["axis", "field", "joined", "computed", "values_agree", "labels_agree"]
    columns += ["median_abs_diff", "max_abs_diff", "spearman"]
    text = f"{len(joined.joined)} recordings joined, {len(joined.missing)} release ids missing.\n\n"
    return (
        text + markdown_table(per_axis, columns) + "\n" + markdown_table(rows, COMPARISON_COLUMNS)
    )


def run(
    release: Annotated[Path, Arg("the release's metadata.jsonl (official field names)")],
    features: Annotated[
        Path, Arg("the rebuild's recordings.csv, or a CSV/JSONL with the release's field names")
    ],
    out_dir: Annotated[
        Path, Arg("folder for audit.csv, audit_summary.csv, audit.md, audit.json, audit.png")
    ],
    rejected: Annotated[
        Path | None, Arg("the rebuild's rejected.csv (default: beside --features)")
    ] = None,
    ingested: Annotated[
        tuple[Path, ...], Arg("ingested recordings (JSONL), for audit.similarity_variants")
    ] = (),
    config: ConfigPath = None,
    settings: SettingsJson = None,
) -> None:
    """Join a rebuild with a published release by recording_id and compare every axis.

    Per axis: both values, differences, label agreement and confusion, median
    and max difference, Spearman; the release ids the rebuild lacks, and why.
    d_N is also re-ranked within the joined set. With audit.similarity_variants
    and --ingested, S is recomputed under each named variant.
    """
    from msbench.audit import COMPARISON_COLUMNS, compare, join, reranked_noise, summary
    from msbench.audit_figure import plot_audit
    from msbench.benchmark.conditions import build_condition_space
    from msbench.tables import read_table, write_csv
    from msbench.textio import write_atomic, write_json

    resolved = resolve_settings(config, settings)
    space = build_condition_space(resolved["condition_space"])
    joined = join(read_table(release), read_table(features), _rejections(features, rejected))
    rows = compare(joined, space)
    per_axis = summary(rows)
    write_csv(out_dir / "audit.csv", rows, COMPARISON_COLUMNS)
    write_csv(out_dir / "audit_summary.csv", per_axis, list(per_axis[0]))
    report = {
        "release": str(release),
        "joined": len(joined.joined),
        "release_ids_missing": joined.missing,
        "axes": per_axis,
        "noise_difficulty": reranked_noise(joined),
        "similarity_variants": _similarity_study(ingested, joined, resolved, space),
    }
    write_json(out_dir / "audit.json", report)
    write_atomic(out_dir / "audit.md", audit_markdown(joined, per_axis, rows))
    plot_audit(rows, space, out_dir / "audit.png")
