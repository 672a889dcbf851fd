rule collect:
    """Join features of every source, rank quality over the pool (d_N), write run manifests."""
    input:
        features=per_source("features/{source}/interaction.jsonl"),
        utterances=per_source("features/{source}/utterances.csv"),
        ingest_rejected=per_source("ingest/{source}/rejected.jsonl"),
        acoustic=acoustic_outputs("features"),
        acoustic_rejected=acoustic_outputs("rejected"),
        similarity=acoustic_outputs("similarity"),
    output:
        characterized=RESULTS / "features/characterized.jsonl",
        rejected=manifest("rejected.csv"),
        utterances=manifest("utterances.csv"),
        similarity=manifest("speaker_similarity.jsonl"),
        summary=manifest("run_summary.json"),
    log:
        RESULTS / "logs/collect.log",
    localrule: True
    params:
        manifests=subpath(output.rejected, parent=True),
        min_speakers=config["eligibility"]["min_speakers"],
    shell:
        "msbench collect --features {input.features:q} --acoustic {input.acoustic:q}"
        " --rejected {input.ingest_rejected:q} {input.acoustic_rejected:q}"
        " --utterances {input.utterances:q} --similarity {input.similarity:q}"
        " --out {output.characterized:q} --manifests {params.manifests:q}"
        " --min-speakers {params.min_speakers} 2> {log:q}"
