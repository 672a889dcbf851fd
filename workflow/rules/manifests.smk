rule overview:
    """recordings.csv (every recording, its labels and status), summary.json, coverage figures."""
    input:
        labelled=rules.bin.output.labelled,
        pool=rules.pool.output.pool,
        excluded=rules.pool.output.excluded,
        benchmark=rules.select.output.benchmark,
        space=rules.bin.output.space,
    output:
        recordings="results/manifests/recordings.csv",
        summary=report(
            "results/manifests/summary.json",
            caption="../report/benchmark_summary.rst",
            category="Benchmark",
        ),
        figure=report(
            "results/manifests/coverage.png",
            caption="../report/coverage.rst",
            category="Benchmark",
            subcategory="Coverage",
        ),
        heatmap=report(
            "results/manifests/profile_coverage.png",
            caption="../report/profile_coverage.rst",
            category="Benchmark",
            subcategory="Coverage",
        ),
    log:
        "results/logs/overview.log",
    localrule: True
    params:
        out_dir=subpath(output.recordings, parent=True),
    shell:
        "msbench overview --labelled {input.labelled:q} --pool {input.pool:q}"
        " --excluded {input.excluded:q} --benchmark {input.benchmark:q} --space {input.space:q}"
        " --out-dir {params.out_dir:q} 2> {log:q}"
