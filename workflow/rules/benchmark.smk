rule conditions:
    """Label every characterized recording with its P-O-S-T-N ranges."""
    input:
        RESULTS / "features/characterized.jsonl",
    output:
        labelled=RESULTS / "benchmark/labelled.jsonl",
        space=manifest("condition_space.yaml"),
    log:
        RESULTS / "logs/conditions.log",
    localrule: True
    params:
        settings=settings_json("condition_space"),
    shell:
        "msbench bin {input:q} -o {output.labelled:q} --space-out {output.space:q}"
        " --settings {params.settings:q} 2> {log:q}"


rule candidate_pool:
    """Eligible recordings, thinned per profile cell and source, with utility C, M, D, R, U."""
    input:
        labelled=rules.conditions.output.labelled,
        space=rules.conditions.output.space,
        qc=selection_files,
    output:
        pool=manifest("candidate_pool.csv"),
        excluded=RESULTS / "benchmark/pool_excluded.jsonl",
    log:
        RESULTS / "logs/candidate_pool.log",
    localrule: True
    params:
        settings=settings_json("pool", "utility", "selection"),
    shell:
        "msbench pool {input.labelled:q} --space {input.space:q} -o {output.pool:q}"
        " --excluded {output.excluded:q} --settings {params.settings:q} 2> {log:q}"


rule select:
    """The integer program: the benchmark subset, in CSV and the official metadata.jsonl."""
    input:
        pool=rules.candidate_pool.output.pool,
        labelled=rules.conditions.output.labelled,
        space=rules.conditions.output.space,
        qc=selection_files,
    output:
        benchmark=manifest("benchmark.csv"),
        metadata=manifest("metadata.jsonl"),
        report=manifest("selection_report.json"),
    log:
        RESULTS / "logs/select.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        out_dir=subpath(output.benchmark, parent=True),
        settings=settings_json("selection"),
    shell:
        "msbench select {input.pool:q} --labelled {input.labelled:q} --space {input.space:q}"
        " --out-dir {params.out_dir:q} --settings {params.settings:q} 2> {log:q}"


rule report:
    """recordings.csv (everything, with labels and pool status), summary.json, coverage.png."""
    input:
        labelled=rules.conditions.output.labelled,
        pool=rules.candidate_pool.output.pool,
        excluded=rules.candidate_pool.output.excluded,
        benchmark=rules.select.output.benchmark,
        space=rules.conditions.output.space,
    output:
        recordings=manifest("recordings.csv"),
        summary=manifest("summary.json"),
        figure=manifest("coverage.png"),
    log:
        RESULTS / "logs/report.log",
    localrule: True
    params:
        out_dir=subpath(output.recordings, parent=True),
    shell:
        "msbench report --labelled {input.labelled:q} --pool {input.pool:q}"
        " --excluded {input.excluded:q} --benchmark {input.benchmark:q} --space {input.space:q}"
        " --out-dir {params.out_dir:q} 2> {log:q}"
