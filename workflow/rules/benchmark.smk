rule bin:
    """Label every characterized recording with its P-O-S-T-N ranges."""
    input:
        "results/features/characterized.jsonl",
    output:
        labelled="results/benchmark/labelled.jsonl",
        space="results/manifests/condition_space.yaml",
    log:
        "results/logs/bin.log",
    localrule: True
    params:
        settings=settings_json("condition_space"),
    shell:
        "msbench bin --features {input:q} --out {output.labelled:q} --space-out {output.space:q}"
        " --settings {params.settings:q} 2> {log:q}"


rule pool:
    """Eligible recordings, thinned per profile cell and source, with utility C, M, D, R, U."""
    input:
        labelled=rules.bin.output.labelled,
        space=rules.bin.output.space,
        qc=selection_files,
    output:
        pool="results/manifests/candidate_pool.csv",
        excluded="results/benchmark/pool_excluded.jsonl",
    log:
        "results/logs/pool.log",
    localrule: True
    params:
        settings=settings_json("pool", "utility", "selection"),
    shell:
        "msbench pool --labelled {input.labelled:q} --space {input.space:q} --out {output.pool:q}"
        " --excluded {output.excluded:q} --settings {params.settings:q} 2> {log:q}"


rule select:
    """The integer program: the benchmark subset, in CSV and the official metadata.jsonl."""
    input:
        pool=rules.pool.output.pool,
        labelled=rules.bin.output.labelled,
        space=rules.bin.output.space,
        qc=selection_files,
    output:
        benchmark=report(
            "results/manifests/benchmark.csv",
            caption="../report/benchmark.rst",
            category="Benchmark",
            subcategory="Selection",
        ),
        metadata="results/manifests/metadata.jsonl",
        report=report(
            "results/manifests/selection_report.json",
            caption="../report/selection_report.rst",
            category="Benchmark",
            subcategory="Selection",
        ),
    log:
        "results/logs/select.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=30,
    params:
        out_dir=subpath(output.benchmark, parent=True),
        settings=settings_json("selection"),
    shell:
        "msbench select --pool {input.pool:q} --labelled {input.labelled:q} --space {input.space:q}"
        " --out-dir {params.out_dir:q} --settings {params.settings:q} 2> {log:q}"
