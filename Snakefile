# msbench: build a condition-stratified multi-speaker benchmark.
#   snakemake --cores N          on one machine
#   snakemake --profile slurm    on a SLURM cluster (edit slurm/config.yaml first)
import sys
import time

from snakemake.utils import min_version

from msbench.config import check_config_files, complete_config
from msbench.failures import cluster_report, failure_report

min_version("9.0")


# a YAML error or a key given twice names the file and line (before Snakemake reads it)
check_config_files(["config/config.yaml", *workflow.configfiles])


configfile: "config/config.yaml"


# the schema (workflow/schemas/config.schema.yaml) with one-line errors, partial axis overrides
complete_config(config, "config")


include: "workflow/rules/common.smk"
include: "workflow/rules/ingest.smk"
include: "workflow/rules/features.smk"
include: "workflow/rules/collect.smk"
include: "workflow/rules/benchmark.smk"
include: "workflow/rules/manifests.smk"
include: "workflow/rules/systems.smk"
include: "workflow/rules/evaluation.smk"
include: "workflow/rules/review.smk"
include: "workflow/rules/probes.smk"
include: "workflow/rules/audit.smk"
include: "workflow/rules/export.smk"


RUN_STARTED = time.time()


onerror:
    # each failing step's own message, on the terminal (its log is in results/logs/)
    print(failure_report("results/logs", RUN_STARTED), file=sys.stderr)
    print(
        cluster_report(".snakemake/slurm_logs", RUN_STARTED) or "",
        file=sys.stderr,
        end="",
    )


onsuccess:
    # jobs SLURM killed or cancelled and a retry then finished: said, not hidden
    print(
        cluster_report(".snakemake/slurm_logs", RUN_STARTED) or "",
        file=sys.stderr,
        end="",
    )


localrules:
    all,


rule all:
    input:
        rules.overview.output,
        evaluation_outputs(),
        audit_outputs(),
        rules.review.output,
        probes_outputs(),
        rules.select.output,
        rules.collect.output,
        export_outputs(),
