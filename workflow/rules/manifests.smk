rule collect:
    """All sources -> recordings.csv, rejected.csv, utterances.csv, run_summary.json."""
    input:
        features=per_source("features/{source}/interaction.jsonl"),
        utterances=per_source("features/{source}/utterances.csv"),
        rejected=per_source("ingest/{source}/rejected.jsonl"),
    output:
        recordings=manifest("recordings.csv"),
        rejected=manifest("rejected.csv"),
        utterances=manifest("utterances.csv"),
        summary=manifest("run_summary.json"),
    params:
        out_dir=subpath(output.recordings, parent=True),
        min_speakers=config["eligibility"]["min_speakers"],
    log:
        RESULTS / "logs/collect.log",
    localrule: True
    shell:
        "msbench collect --features {input.features:q} --rejected {input.rejected:q}"
        " --utterances {input.utterances:q} --out-dir {params.out_dir:q}"
        " --min-speakers {params.min_speakers} 2> {log:q}"
