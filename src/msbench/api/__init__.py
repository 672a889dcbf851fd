"""msbench's Python interface (the model: meeteval's ``wer/api.py``): the functions a
researcher calls on the objects they hold; the command line is a thin layer over them."""

from msbench.api.one_pair import cpwer, der, score, tcpwer, wer
from msbench.api.systems import Comparison, Evaluation, compare, evaluate
from msbench.scoring.report import ScoreReport

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
