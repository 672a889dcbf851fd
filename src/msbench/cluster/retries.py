"""What a retried SLURM job asks for: the resource that ran out grows, nothing else.

A job's first attempt asks for its first request (the user's ``--set-resources`` or config
value, else msbench's model of the job: :mod:`msbench.features.job_size`). Each ended attempt's
cause (:mod:`msbench.cluster.causes`, read from its SLURM log) then changes the next request:

``time``       the runtime doubles (also a runtime the user set);
``memory``     the memory becomes the larger of twice itself and msbench's predicted peak with
               its margin (a user's ``acoustic.mem_mb: 600`` under a predicted 1,500 MB goes
               straight to 1,500, not 1,200 and then 1,800);
``node``, ``cancelled``, ``other``   both are kept: nothing ran out.

A refused submission is no attempt at all (:mod:`msbench.cluster.submit` waits it out), so it
grows nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from msbench.cluster.causes import Cause


def retried(first: Mapping[str, int], predicted_mb: int, causes: Sequence[Cause]) -> dict[str, int]:
    """The request after attempts that ended with ``causes`` (oldest first).

    >>> from msbench.cluster.causes import Cause
    >>> first = {"mem_mb": 600, "runtime": 2}
    >>> retried(first, 1500, [Cause("time", "")])
    {'mem_mb': 600, 'runtime': 4}
    >>> retried(first, 1500, [Cause("memory", "")]), retried(first, 900, [Cause("memory", "")])
    ({'mem_mb': 1500, 'runtime': 2}, {'mem_mb': 1200, 'runtime': 2})
    >>> retried(first, 1500, [Cause("node", ""), Cause("time", ""), Cause("time", "")])
    {'mem_mb': 600, 'runtime': 8}
    """
    mem_mb, runtime = int(first["mem_mb"]), int(first["runtime"])
    for cause in causes:
        if cause.kind == "time":
            runtime *= 2
        elif cause.kind == "memory":
            mem_mb = max(2 * mem_mb, int(predicted_mb))
    return {"mem_mb": mem_mb, "runtime": runtime}


def why(first: Mapping[str, int], causes: Sequence[Cause]) -> str:
    """What a retry asks and why, for the job's attempt log.

    >>> from msbench.cluster.causes import Cause
    >>> why({"mem_mb": 600, "runtime": 2}, [Cause("time", "killed by SLURM at its time limit")])
    'after 1 ended attempt(s) (killed by SLURM at its time limit)'
    """
    if not causes:
        return "first attempt"
    return f"after {len(causes)} ended attempt(s) ({'; '.join(c.said for c in causes)})"


def user_requests(workflow: Any, rules: Sequence[str]) -> dict[str, dict[str, int]]:
    """The ``mem_mb`` and ``runtime`` a user fixed with ``--set-resources`` for ``rules``,
    taken out of Snakemake's overrides (which would fix every attempt) so that the rules'
    resource functions start from them and grow them (call before the rules are defined)."""
    parsed = workflow.resource_settings._parsed_overwrite_resources
    found: dict[str, dict[str, int]] = {}
    for rule in rules:
        resources = parsed.get(rule)
        if resources is None:
            continue
        for name in ("mem_mb", "runtime"):
            if name in resources._data:
                found.setdefault(rule, {})[name] = int(resources._data.pop(name).value)
    return found
