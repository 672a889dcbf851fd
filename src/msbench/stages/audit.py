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
    from msbench.catalog import ANY_RECORDINGS, AUDIT, AUDIT_SUMMARY, RELEASE_METADATA
    from msbench.construction.condition_space import build_condition_space
    from msbench.tables import read_rows, write_rows
    from msbench.textio import write_atomic, write_json

    resolved = resolve_settings(config, settings)
    space = build_condition_space(resolved["condition_space"])
    rebuild = [dict(row) for row in read_rows(ANY_RECORDINGS, features)]
    joined = join(
        read_rows(RELEASE_METADATA, release), rebuild, rebuild_rejections(features, rejected)
    )
    rows = compare(joined, space)
    per_axis = summary(rows)
    write_rows(AUDIT, out_dir / AUDIT.name, rows)
    write_rows(AUDIT_SUMMARY, out_dir / AUDIT_SUMMARY.name, per_axis, columns=list(per_axis[0]))
    similarity = similarity_study(ingested, joined, resolved, space)
    write_json(out_dir / "audit.json", audit_report(release, joined, per_axis, similarity))
    write_atomic(out_dir / "audit.md", audit_markdown(joined, per_axis, rows))
    plot_audit(rows, space, out_dir / "audit.png")
