rule review:
    """The review site: every selected recording with audio, timeline and QC checks; systems' errors."""
    input:
        benchmark="results/manifests/benchmark.csv",
        recordings="results/manifests/recordings.csv",
        utterances="results/manifests/utterances.csv",
        pool="results/manifests/candidate_pool.csv",
        space="results/manifests/condition_space.yaml",
        figures=[
            "results/manifests/coverage.png",
            "results/manifests/profile_coverage.png",
        ],
        evaluations=review_evaluations(),
        results=evaluation_outputs(),
        probes=probes_outputs(),
    output:
        report(
            directory("results/review"),
            htmlindex="index.html",
            caption="../report/review.rst",
            category="Review",
        ),
    log:
        "results/logs/review.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        systems=json.dumps(list(SYSTEMS.values()), sort_keys=True),
        folders=[f"results/evaluation/{system}" for system in SYSTEMS],
        settings=settings_json("review"),
        probes=review_probes(),
        results=review_results(),
    shell:
        "msbench review --benchmark {input.benchmark:q} --recordings {input.recordings:q}"
        " --utterances {input.utterances:q} --pool {input.pool:q}"
        " --condition-space {input.space:q} --figures {input.figures:q}"
        " --systems {params.systems:q} --evaluations {params.folders:q}"
        " --out-dir {output:q} --settings {params.settings:q} {params.probes} {params.results} 2> {log:q}"
