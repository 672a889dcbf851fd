rule audit:
    """The rebuild against the published release (config `release:`): results/audit/."""
    input:
        release=config["release"] or [],
        features="results/manifests/recordings.csv",
        rejected="results/manifests/rejected.csv",
        ingested=per_source("results/ingest/{source}/recordings.jsonl"),
    output:
        table="results/audit/audit.csv",
        summary="results/audit/audit_summary.csv",
        markdown=report(
            "results/audit/audit.md", caption="../report/audit.rst", category="Audit"
        ),
        report="results/audit/audit.json",
        figure=report(
            "results/audit/audit.png",
            caption="../report/audit_figure.rst",
            category="Audit",
        ),
    log:
        "results/logs/audit.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        out_dir=subpath(output.table, parent=True),
        settings=settings_json("condition_space", "audit", "acoustic", "models"),
    shell:
        "msbench audit --release {input.release:q} --features {input.features:q}"
        " --rejected {input.rejected:q} --ingested {input.ingested:q}"
        " --out-dir {params.out_dir:q} --settings {params.settings:q} 2> {log:q}"
