rule evaluate:
    """One system on every inference unit of the benchmark: units.csv, recordings.csv, summary.json."""
    input:
        benchmark="results/manifests/benchmark.csv",
        utterances="results/manifests/utterances.csv",
        outputs=system_files,
    output:
        units="results/evaluation/{system}/units.csv",
        recordings="results/evaluation/{system}/recordings.csv",
        summary="results/evaluation/{system}/summary.json",
    log:
        "results/logs/evaluate/{system}.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        system=system_entry,
        out_dir=subpath(output.units, parent=True),
        settings=settings_json("scoring"),
    shell:
        "msbench evaluate --system {params.system:q} --benchmark {input.benchmark:q}"
        " --utterances {input.utterances:q} --out-dir {params.out_dir:q}"
        " --settings {params.settings:q} 2> {log:q}"


rule leaderboard:
    """All systems: leaderboard.{csv,md,json} (official layout) and the per-condition tables."""
    input:
        summaries=expand("results/evaluation/{system}/summary.json", system=SYSTEMS),
        benchmark="results/manifests/benchmark.csv",
    output:
        csv="results/evaluation/leaderboard.csv",
        markdown="results/evaluation/leaderboard.md",
        json="results/evaluation/leaderboard.json",
        conditions="results/evaluation/by_condition.csv",
        conditions_markdown="results/evaluation/by_condition.md",
        figure="results/evaluation/by_condition.png",
    log:
        "results/logs/leaderboard.log",
    localrule: True
    params:
        folders=[f"results/evaluation/{system}" for system in SYSTEMS],
        out_dir=subpath(output.csv, parent=True),
    shell:
        "msbench leaderboard --systems {params.folders:q} --benchmark {input.benchmark:q}"
        " --out-dir {params.out_dir:q} 2> {log:q}"
