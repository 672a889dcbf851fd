# msbench's workflow is workflow/Snakefile (the Snakemake workflow catalog's layout, what
# snakedeploy deploys); this file lets `snakemake` typed in the repository run it.


include: "workflow/Snakefile"


# the default target: everything rule `all` asks for (Snakemake restores the including file's
# default target after an include, so an included file's `default_target` does not carry over)
rule everything:
    default_target: True
    input:
        rules.all.input,
