"""msbench: build and use condition-stratified multi-speaker speech benchmarks.

The Python interface (:mod:`msbench.api`; meeteval's ``wer/api.py`` is the model)::

    import msbench
    report = msbench.score("ref.stm", "hyp.json")   # paths, SegLST dicts, meeteval SegLST,
    print(report.rate("cpwer"))                    # lhotse supervisions, pyannote Annotation

``score``, ``cpwer``, ``tcpwer``, ``wer``, ``der``, ``evaluate`` and ``compare`` are loaded on
first use, so ``import msbench`` and the command line start fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.3.0"

__all__ = [
    "Comparison",
    "Evaluation",
    "ScoreReport",
    "compare",
    "cpwer",
    "der",
    "evaluate",
    "score",
    "tcpwer",
    "wer",
]

if TYPE_CHECKING:  # the names as type checkers see them; at run time, loaded on first use
    from msbench.api import (
        Comparison,
        Evaluation,
        ScoreReport,
        compare,
        cpwer,
        der,
        evaluate,
        score,
        tcpwer,
        wer,
    )


def __getattr__(name: str) -> Any:
    """PEP 562: the API's names, imported from :mod:`msbench.api` when first asked for."""
    if name in __all__:
        import importlib

        return getattr(importlib.import_module("msbench.api"), name)
    raise AttributeError(f"module 'msbench' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
