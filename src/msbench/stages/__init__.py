"""Stage entry points: file I/O only, one module per workflow rule and ``msbench`` subcommand.

Each module defines one function, ``run``, whose signature and docstring are the
command line (:mod:`msbench.cli` builds the parser from them): every argument
is declared once, with its type, default and help, as
``Annotated[type, Arg(help)]``. Rules, the command line and Python callers all
go through that function.
"""

#: Subcommand name -> module, in the order the workflow runs them.
COMMANDS = {
    "describe": "msbench.stages.describe",
    "ingest": "msbench.stages.ingest",
    "interaction": "msbench.stages.interaction",
    "acoustic": "msbench.stages.acoustic",
    "gather": "msbench.stages.gather",
    "collect": "msbench.stages.collect",
    "bin": "msbench.stages.bin",
    "pool": "msbench.stages.pool",
    "select": "msbench.stages.select",
    "overview": "msbench.stages.overview",
    "summary": "msbench.stages.summary",
    "units": "msbench.stages.units",
    "baseline": "msbench.stages.baseline",
    "simulate": "msbench.stages.simulate",
    "score": "msbench.stages.score",
    "evaluate": "msbench.stages.evaluate",
    "leaderboard": "msbench.stages.leaderboard",
    "compare": "msbench.stages.compare",
    "diagnose": "msbench.stages.diagnose",
    "table2": "msbench.stages.table2",
    "probes": "msbench.stages.probes",
    "probes-score": "msbench.stages.probes_score",
    "review": "msbench.stages.review",
    "audit": "msbench.stages.audit",
    "export": "msbench.stages.export",
}
