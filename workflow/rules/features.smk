rule interaction:
    """Speakers, overlap, turn gaps per recording and r_ov per utterance (annotations only)."""
    input:
        RESULTS / "ingest/{source}/recordings.jsonl",
    output:
        features=RESULTS / "features/{source}/interaction.jsonl",
        utterances=RESULTS / "features/{source}/utterances.csv",
    log:
        RESULTS / "logs/interaction/{source}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    shell:
        "msbench interaction {input:q} --out {output.features:q}"
        " --utterances {output.utterances:q} 2> {log:q}"
