rule units:
    """The benchmark's inference units: units.csv and one 16 kHz mono FLAC per unit."""
    input:
        benchmark="results/manifests/benchmark.csv",
        recordings="results/manifests/recordings.csv",
        utterances="results/manifests/utterances.csv",
    output:
        units="results/units/units.csv",
        audio=directory("results/units/audio"),
    log:
        "results/logs/units.log",
    threads: 1
    resources:
        mem_mb=units_resource("mem_mb"),
        runtime=units_resource("runtime"),
    params:
        out_dir=subpath(output.units, parent=True),
        settings=settings_json("units"),
    shell:
        # every attempt's lines kept in <log>.attempts (common.smk: attempt logs)
        'echo "[msbench] $(date -u +%FT%TZ) attempt with mem_mb={resources.mem_mb},'
        ' runtime={resources.runtime} min" >> {log:q}.attempts; '
        "msbench units --benchmark {input.benchmark:q} --recordings {input.recordings:q}"
        " --utterances {input.utterances:q} --out-dir {params.out_dir:q}"
        " --settings {params.settings:q} 2>&1 | tee -a {log:q}.attempts > {log:q}"


rule baseline:
    """The cascaded baseline on every unit: SegLST per unit, runtime and versions in baseline.json."""
    input:
        units=rules.units.output.units,
        audio=rules.units.output.audio,
        benchmark="results/manifests/benchmark.csv",
    output:
        sidecar="results/systems/baseline/baseline.json",
    log:
        "results/logs/baseline.log",
    threads: config["baseline"]["threads"]
    resources:
        mem_mb=6000,
        runtime=240,
        gpu=BASELINE_GPUS,
        # how the models run and where their weights are: not what they compute, so not a
        # param (editing it reruns nothing; common.smk: RUNTIME_ONLY)
        msbench_runtime=ACOUSTIC_RUNTIME,
    params:
        out_dir=subpath(output.sidecar, parent=True),
        settings=settings_json("baseline"),
        weights=WEIGHTS,
    shell:
        "msbench baseline --units {input.units:q} --benchmark {input.benchmark:q}"
        " --out-dir {params.out_dir:q} --settings {params.settings:q}"
        " --runtime {resources.msbench_runtime:q} 2> {log:q}"


rule simulate:
    """A system made from the reference with a seeded error process (a config entry's simulate:)."""
    input:
        benchmark="results/manifests/benchmark.csv",
        utterances="results/manifests/utterances.csv",
    output:
        sidecar="results/systems/{system}/simulated.json",
    log:
        "results/logs/simulate/{system}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        system=simulated_entry,
        out_dir=subpath(output.sidecar, parent=True),
    shell:
        "msbench simulate --system {params.system:q} --benchmark {input.benchmark:q}"
        " --utterances {input.utterances:q} --out-dir {params.out_dir:q} 2> {log:q}"
