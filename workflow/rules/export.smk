rule export:
    """The benchmark for lhotse, Hugging Face datasets, Kaldi/ESPnet and meeteval (config
    `export.formats`); with hf and probes enabled, the probe set too."""
    input:
        benchmark="results/manifests/benchmark.csv",
        recordings="results/manifests/recordings.csv",
        utterances="results/manifests/utterances.csv",
        units=rules.units.output.units,
        unit_audio=rules.units.output.audio,
        sheet=config["datasets"],
        ingested=per_source("results/ingest/{source}/recordings.jsonl"),
        probes=export_probes(),
        evaluations=evaluation_outputs(),
    output:
        directory("results/export"),
    log:
        "results/logs/export.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        formats=" ".join(config["export"]["formats"]),
        systems=export_systems(),
        tokenizer=config["scoring"]["tokenizer"],
        probes=lambda wildcards, input: (
            f"--probes {input.probes}" if input.probes else ""
        ),
    shell:
        "msbench export --to {params.formats} --out {output:q}"
        " --benchmark {input.benchmark:q} --recordings {input.recordings:q}"
        " --utterances {input.utterances:q} --units {input.units:q}"
        " --unit-audio {input.unit_audio:q} --sheet {input.sheet:q}"
        " --ingested {input.ingested:q} {params.probes} --tokenizer {params.tokenizer}"
        " --systems {params.systems} 2> {log:q}"
