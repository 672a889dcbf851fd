checkpoint ingest:
    """Validate one source: recordings that pass, and a rejected list with reasons.

    A checkpoint: the number of recordings decides how many extraction batches follow.
    """
    input:
        sheet=config["datasets"],
        files=source_files,
    output:
        recordings="results/ingest/{source}/recordings.jsonl",
        rejected="results/ingest/{source}/rejected.jsonl",
        encodings="results/ingest/{source}/encodings.json",
    log:
        "results/logs/ingest/{source}.log",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        out_dir=subpath(output.recordings, parent=True),
        tolerance=config["ingest"]["end_tolerance_seconds"],
        strict="--strict-segments" if config["ingest"]["strict_segments"] else "",
    shell:
        "msbench ingest --sheet {input.sheet:q} --source {wildcards.source}"
        " --out-dir {params.out_dir:q} --end-tolerance {params.tolerance} {params.strict}"
        " 2> {log:q}"
