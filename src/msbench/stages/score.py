"""``msbench score``: one reference against one hypothesis; one JSON object on standard output."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

from msbench.file_formats import SCORING_FORMATS
from msbench.scoring.der import DER_CONVENTIONS
from msbench.stages.options import Arg

FORMATS = SCORING_FORMATS


def run(
    ref: Annotated[
        Path, Arg("reference: STM, SegLST, RTTM (DER only), CTM with speakers, TextGrid")
    ],
    hyp: Annotated[Path, Arg("hypothesis: STM, SegLST, RTTM, CTM, or timestamped text")],
    uem: Annotated[
        Path | None, Arg("UEM: each session's scored span (default: 0 to the last end)")
    ] = None,
    collar: Annotated[
        float, Arg("DER collar, seconds on EACH side of a reference boundary")
    ] = 0.25,
    der_convention: Annotated[
        str, Arg("where DER collars go (msbench.scoring.der)", choices=DER_CONVENTIONS)
    ] = "boundaries",
    tcp_collar: Annotated[float, Arg("tcpWER collar (s)")] = 5.0,
    tokenizer: Annotated[
        str, Arg("text normalisation of both sides", choices=("mixed-v1", "whitespace"))
    ] = "mixed-v1",
    segmentation_tolerance: Annotated[
        float, Arg("an I/D is segmentation when no speech of the other side is this close (s)")
    ] = 0.25,
    boundary_tolerance: Annotated[
        float, Arg("an overlap boundary is localised by a hypothesis boundary this close (s)")
    ] = 0.5,
    ref_format: Annotated[str | None, Arg("force the reference format", choices=FORMATS)] = None,
    hyp_format: Annotated[str | None, Arg("force the hypothesis format", choices=FORMATS)] = None,
    encoding: Annotated[
        str | None,
        Arg("legacy text encoding tried where UTF-8 fails (gb2312, gbk, shift_jis, ...)"),
    ] = None,
) -> None:
    """Score one hypothesis file against one reference file: DER, cpWER, tcpWER, WER as JSON.

    Rates are fractions. DER's collar is a half-width (0.25 = pyannote.metrics'
    collar=0.5 = md-eval's -c 0.25), placed at the reference's segment
    boundaries; --der-convention md-eval gives md-eval-22.pl's numbers;
    der_collar0 is always reported. wer is the speaker-agnostic WER,
    tcorcwer and orcwer beside it; totals are ratios of sums; the diagnostics
    (e_lex, e_seg, e_attr, counts, r_time) are in the same object; notes lists
    every change made to the input (zero-length segments, self-overlap merged
    for DER, what lies outside the UEM), with counts.
    """
    from msbench.ingest.adapters import read_uem_spans
    from msbench.scoring.checks import refuse_structural_problem
    from msbench.scoring.formats import read_segments
    from msbench.scoring.pair import score_pair

    reference = read_segments(ref, ref_format, encoding=encoding)
    hypothesis = read_segments(hyp, hyp_format, encoding=encoding)
    refuse_structural_problem(hyp, hypothesis)  # what evaluate excludes, in the same words
    spans = read_uem_spans(str(uem), encoding).strict() if uem else None
    tolerances = {"segmentation_tolerance": segmentation_tolerance}
    tolerances["boundary_tolerance"] = boundary_tolerance
    scores = score_pair(
        reference, hypothesis, spans, collar, tcp_collar, tokenizer, tolerances,
        der_convention=der_convention,
    )  # fmt: skip
    print(json.dumps(scores, ensure_ascii=False, indent=2))
