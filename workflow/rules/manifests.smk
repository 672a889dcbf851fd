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
        summary="results/manifests/summary.json",
        figure="results/manifests/coverage.png",
        heatmap="results/manifests/profile_coverage.png",
    log:
        "results/logs/overview.log",
    localrule: True
    params:
        out_dir=subpath(output.recordings, parent=True),
    shell:
        "msbench overview --labelled {input.labelled:q} --pool {input.pool:q}"
        " --excluded {input.excluded:q} --benchmark {input.benchmark:q} --space {input.space:q}"
        " --out-dir {params.out_dir:q} 2> {log:q}"
