rule collect:
    """Join features of every source, rank quality over the pool (d_N), write run manifests."""
    input:
        features=per_source("results/features/{source}/interaction.jsonl"),
        utterances=per_source("results/features/{source}/utterances.csv"),
        ingest_rejected=per_source("results/ingest/{source}/rejected.jsonl"),
        acoustic=per_source("results/features/{source}/acoustic.jsonl"),
        acoustic_rejected=per_source(
            "results/features/{source}/acoustic.rejected.jsonl"
        ),
        similarity=per_source("results/features/{source}/acoustic.similarity.jsonl"),
    output:
        characterized="results/features/characterized.jsonl",
        rejected="results/manifests/rejected.csv",
        utterances="results/manifests/utterances.csv",
        similarity="results/manifests/speaker_similarity.jsonl",
        summary="results/manifests/run_summary.json",
    log:
        "results/logs/collect.log",
    localrule: True
    params:
        manifests=subpath(output.rejected, parent=True),
        settings=collect_settings(),
    shell:
        "msbench collect --features {input.features:q} --acoustic {input.acoustic:q}"
        " --rejected {input.ingest_rejected:q} {input.acoustic_rejected:q}"
        " --utterances {input.utterances:q} --similarity {input.similarity:q}"
        " --out {output.characterized:q} --manifests {params.manifests:q}"
        " --settings {params.settings:q} 2> {log:q}"
