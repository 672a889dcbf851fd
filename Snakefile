# msbench's workflow is workflow/Snakefile (the Snakemake workflow catalog's layout, what
# snakedeploy deploys); this file lets `snakemake` typed in the repository run it.


include: "workflow/Snakefile"
