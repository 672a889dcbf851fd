rule probes:
    """HEAR-style speaker-attribution items with their audio (config probes:, off by default)."""
    input:
        recordings="results/manifests/recordings.csv",
        utterances="results/manifests/utterances.csv",
        ingested=per_source("results/ingest/{source}/recordings.jsonl"),
        benchmark=(
            "results/manifests/benchmark.csv"
            if config["probes"]["recordings"] == "benchmark"
            else []
        ),
    output:
        report(
            directory("results/probes"),
            patterns=["probe_{summary}.json"],
            caption="../report/probes.rst",
            category="Probes",
        ),
    log:
        "results/logs/probes.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
        msbench_runtime=ACOUSTIC_RUNTIME,  # runtime-only, as in rule acoustic
    params:
        benchmark=lambda wildcards, input: (
            f"--benchmark {input.benchmark}" if input.benchmark else ""
        ),
        settings=settings_json("probes"),
    shell:
        "msbench probes --recordings {input.recordings:q} --utterances {input.utterances:q}"
        " --ingested {input.ingested:q} {params.benchmark} --out-dir {output:q}"
        " --settings {params.settings:q}"
        " --runtime {resources.msbench_runtime:q} 2> {log:q}"
