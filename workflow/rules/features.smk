rule interaction:
    """Speakers, overlap, turn gaps per recording and r_ov per utterance (annotations only)."""
    input:
        "results/ingest/{source}/recordings.jsonl",
    output:
        features="results/features/{source}/interaction.jsonl",
        utterances="results/features/{source}/utterances.csv",
    log:
        "results/logs/interaction/{source}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    shell:
        "msbench interaction --ingested {input:q} --out {output.features:q}"
        " --utterances {output.utterances:q} 2> {log:q}"


rule acoustic:
    """CAM++ similarity, DNSMOS P.835 and NISQA for one batch of `acoustic.batch_hours` of audio."""
    input:
        "results/ingest/{source}/recordings.jsonl",
    output:
        features="results/features/{source}/acoustic/{batch}-of-{batches}.jsonl",
        rejected="results/features/{source}/acoustic/{batch}-of-{batches}.rejected.jsonl",
        similarity="results/features/{source}/acoustic/{batch}-of-{batches}.similarity.jsonl",
    log:
        "results/logs/acoustic/{source}/{batch}-of-{batches}.log",
    threads: config["acoustic"]["threads"]
    resources:
        mem_mb=acoustic_resource("mem_mb"),
        runtime=acoustic_resource("runtime"),
        gpu=ACOUSTIC_GPUS,
        # how the models run and where their weights are (threads, decode workers, weight
        # folders): not what they compute, so a resource, not a param: editing it reruns
        # nothing (common.smk: RUNTIME_ONLY)
        msbench_runtime=ACOUSTIC_RUNTIME,
    params:
        settings=acoustic_settings(),
        weights=WEIGHTS,
    shell:
        # every attempt's lines kept in <log>.attempts (common.smk: attempt logs)
        'echo "[msbench] $(date -u +%FT%TZ) attempt with mem_mb={resources.mem_mb},'
        ' runtime={resources.runtime} min" >> {log:q}.attempts; '
        "msbench acoustic --ingested {input:q} --batch {wildcards.batch}"
        " --batches {wildcards.batches}"
        " --out {output.features:q} --rejected {output.rejected:q}"
        " --similarity {output.similarity:q} --settings {params.settings:q}"
        " --runtime {resources.msbench_runtime:q} --mem-mb {resources.mem_mb}"
        " 2>&1 | tee -a {log:q}.attempts > {log:q}"


rule gather:
    """One source's acoustic batches joined, in batch order (the collect step reads these)."""
    input:
        features=source_batches(""),
        rejected=source_batches(".rejected"),
        similarity=source_batches(".similarity"),
    output:
        features="results/features/{source}/acoustic.jsonl",
        rejected="results/features/{source}/acoustic.rejected.jsonl",
        similarity="results/features/{source}/acoustic.similarity.jsonl",
    log:
        "results/logs/gather/{source}.log",
    localrule: True
    shell:
        "(msbench gather --out {output.features:q} --parts {input.features:q}"
        " && msbench gather --out {output.rejected:q} --parts {input.rejected:q}"
        " && msbench gather --out {output.similarity:q} --parts {input.similarity:q})"
        " 2> {log:q}"
