# msbench: build a condition-stratified multi-speaker benchmark.
#   snakemake --cores N          on one machine
#   snakemake --profile slurm    on a SLURM cluster (edit slurm/config.yaml first)
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/ingest.smk"
include: "workflow/rules/features.smk"
include: "workflow/rules/collect.smk"
include: "workflow/rules/benchmark.smk"
include: "workflow/rules/manifests.smk"


localrules:
    all,


rule all:
    input:
        rules.overview.output,
        rules.select.output,
        rules.collect.output,
