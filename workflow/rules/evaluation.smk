rule evaluate:
    """One system on every inference unit: unit_scores.csv, recording_scores.csv, score_summary.json,
    diagnostics rows."""
    input:
        benchmark="results/manifests/benchmark.csv",
        utterances="results/manifests/utterances.csv",
        outputs=system_files,
    output:
        units="results/evaluation/{system}/unit_scores.csv",
        recordings="results/evaluation/{system}/recording_scores.csv",
        summary="results/evaluation/{system}/score_summary.json",
        utterances="results/evaluation/{system}/utterance_scores.csv",
        pairs="results/evaluation/{system}/pairs.csv",
        penalties="results/evaluation/{system}/penalty_scores.csv",
        alignments=directory("results/evaluation/{system}/alignments"),
    log:
        "results/logs/evaluate/{system}.log",
    threads: config["scoring"]["threads"]
    resources:
        mem_mb=evaluate_resource("mem_mb"),
        runtime=evaluate_resource("runtime"),
    params:
        system=system_options,
        out_dir=subpath(output.units, parent=True),
        settings=settings_json("scoring"),
    shell:
        # every attempt's lines kept in <log>.attempts (common.smk: attempt logs)
        'echo "[msbench] $(date -u +%FT%TZ) attempt with mem_mb={resources.mem_mb},'
        ' runtime={resources.runtime} min" >> {log:q}.attempts; '
        "msbench evaluate {params.system} --benchmark {input.benchmark:q}"
        " --utterances {input.utterances:q} --out-dir {params.out_dir:q}"
        " --settings {params.settings:q} --threads {threads} 2>&1"
        " | tee -a {log:q}.attempts > {log:q}"


rule leaderboard:
    """All systems: leaderboard.{csv,md,json} (official layout), its views with intervals and
    rank groups (leaderboard_views.{csv,json}), and the per-condition tables."""
    input:
        summaries=expand(
            "results/evaluation/{system}/score_summary.json", system=SYSTEMS
        ),
        penalties=expand(
            "results/evaluation/{system}/penalty_scores.csv", system=SYSTEMS
        ),
        benchmark="results/manifests/benchmark.csv",
        references="results/manifests/utterances.csv",
        comparison=comparison_pairs(),
    output:
        csv="results/evaluation/leaderboard.csv",
        markdown=report(
            "results/evaluation/leaderboard.md",
            caption="../report/leaderboard.rst",
            category="Evaluation",
            subcategory="Leaderboard",
        ),
        json="results/evaluation/leaderboard.json",
        views=report(
            "results/evaluation/leaderboard_views.csv",
            caption="../report/leaderboard_views.rst",
            category="Evaluation",
            subcategory="Leaderboard",
        ),
        views_json="results/evaluation/leaderboard_views.json",
        conditions="results/evaluation/by_condition.csv",
        conditions_markdown=report(
            "results/evaluation/by_condition.md",
            caption="../report/by_condition.rst",
            category="Evaluation",
            subcategory="By condition",
        ),
        figure=report(
            "results/evaluation/by_condition.png",
            caption="../report/by_condition_figure.rst",
            category="Evaluation",
            subcategory="By condition",
        ),
    log:
        "results/logs/leaderboard.log",
    localrule: True
    params:
        folders=[f"results/evaluation/{system}" for system in SYSTEMS],
        out_dir=subpath(output.csv, parent=True),
        comparison=comparison_option,
        settings=settings_json("compare", "diagnostics"),
    shell:
        "msbench leaderboard --systems {params.folders:q} --benchmark {input.benchmark:q}"
        " --references {input.references:q}"
        " --out-dir {params.out_dir:q} {params.comparison} --settings {params.settings:q}"
        " 2> {log:q}"


rule compare:
    """Every pair of systems on the units both scored, overall and per condition: differences
    with paired intervals, the probability of improvement, paired tests (max-T)."""
    input:
        units=expand("results/evaluation/{system}/unit_scores.csv", system=SYSTEMS),
        penalties=expand(
            "results/evaluation/{system}/penalty_scores.csv", system=SYSTEMS
        ),
        utterances=expand(
            "results/evaluation/{system}/utterance_scores.csv", system=SYSTEMS
        ),
        benchmark="results/manifests/benchmark.csv",
        references="results/manifests/utterances.csv",
        similarity="results/manifests/speaker_similarity.jsonl",
    output:
        pairs="results/evaluation/compare/pairs.csv",
        table2="results/evaluation/compare/table2_pairs.csv",
        markdown=report(
            "results/evaluation/compare/compare.md",
            caption="../report/compare.rst",
            category="Evaluation",
            subcategory="Which system is better",
        ),
        json="results/evaluation/compare/compare.json",
        figure=report(
            "results/evaluation/compare/compare.png",
            caption="../report/compare_figure.rst",
            category="Evaluation",
            subcategory="Which system is better",
        ),
    log:
        "results/logs/compare.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        folders=[f"results/evaluation/{system}" for system in SYSTEMS],
        out_dir=subpath(output.pairs, parent=True),
        settings=settings_json("compare", "diagnostics", "scoring"),
    shell:
        "msbench compare --evaluations {params.folders:q} --benchmark {input.benchmark:q}"
        " --references {input.references:q}"
        " --similarity {input.similarity:q} --out {params.out_dir:q}"
        " --settings {params.settings:q} 2> {log:q}"


rule diagnose:
    """The five condition analyses of one system, with cluster-bootstrap intervals."""
    input:
        units="results/evaluation/{system}/unit_scores.csv",
        utterances="results/evaluation/{system}/utterance_scores.csv",
        pairs="results/evaluation/{system}/pairs.csv",
        summary="results/evaluation/{system}/score_summary.json",
        benchmark="results/manifests/benchmark.csv",
        similarity="results/manifests/speaker_similarity.jsonl",
    output:
        "results/evaluation/{system}/conditions.json",
    log:
        "results/logs/diagnose/{system}.log",
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    params:
        system_dir=subpath(input.units, parent=True),
        settings=settings_json("diagnostics", "scoring"),
    shell:
        "msbench diagnose --system-dir {params.system_dir:q} --benchmark {input.benchmark:q}"
        " --similarity {input.similarity:q} --out {output:q}"
        " --settings {params.settings:q} 2> {log:q}"


rule table2:
    """All systems: condition_results.json (release layout), Table 2, and its figures."""
    input:
        expand("results/evaluation/{system}/conditions.json", system=SYSTEMS),
    output:
        json="results/evaluation/condition_results.json",
        csv="results/evaluation/table2.csv",
        markdown=report(
            "results/evaluation/table2.md",
            caption="../report/table2.rst",
            category="Diagnosis",
            subcategory="Table 2",
        ),
        intervals=report(
            "results/evaluation/table2_intervals.md",
            caption="../report/table2_intervals.rst",
            category="Diagnosis",
            subcategory="Table 2",
        ),
        decomposition=report(
            "results/evaluation/error_decomposition.png",
            caption="../report/error_decomposition.rst",
            category="Diagnosis",
            subcategory="Figures",
        ),
        figure=report(
            "results/evaluation/conditions.png",
            caption="../report/conditions_figure.rst",
            category="Diagnosis",
            subcategory="Figures",
        ),
    log:
        "results/logs/table2.log",
    localrule: True
    params:
        out_dir=subpath(output.json, parent=True),
    shell:
        "msbench table2 --systems {input:q} --out-dir {params.out_dir:q} 2> {log:q}"
