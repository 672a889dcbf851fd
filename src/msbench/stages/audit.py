"""``msbench audit``: a rebuild's features against a published release's metadata.jsonl."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.stages.options import Arg, ConfigPath, SettingsJson, resolve_settings


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
    from msbench.audit.compare import compare, join, summary
    from msbench.audit.figure import plot_audit
    from msbench.audit.report import (
        audit_markdown,
        audit_report,
        rebuild_rejections,
        similarity_study,
    )
    from msbench.columns import COMPARISON_COLUMNS
    from msbench.construction.condition_space import build_condition_space
    from msbench.tables import read_table, write_csv
    from msbench.textio import write_atomic, write_json

    resolved = resolve_settings(config, settings)
    space = build_condition_space(resolved["condition_space"])
    joined = join(read_table(release), read_table(features), rebuild_rejections(features, rejected))
    rows = compare(joined, space)
    per_axis = summary(rows)
    write_csv(out_dir / "audit.csv", rows, COMPARISON_COLUMNS)
    write_csv(out_dir / "audit_summary.csv", per_axis, list(per_axis[0]))
    similarity = similarity_study(ingested, joined, resolved, space)
    write_json(out_dir / "audit.json", audit_report(release, joined, per_axis, similarity))
    write_atomic(out_dir / "audit.md", audit_markdown(joined, per_axis, rows))
    plot_audit(rows, space, out_dir / "audit.png")
