"""``msbench score``: one reference against one hypothesis: a table on a terminal, else (or with
``--json``) one JSON object; what each file was read as and every warning on standard error."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.io.registry import SCORING_FORMATS
from msbench.scoring.der import DER_CONVENTIONS
from msbench.stages.options import Arg

FORMATS = SCORING_FORMATS
LISTED = ", ".join(FORMATS)


def run(
    ref: Annotated[Path, Arg(f"reference, any of: {LISTED} (detected by content; RTTM: DER only)")],
    hyp: Annotated[Path, Arg(f"hypothesis, any of: {LISTED} (detected by content)")],
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
    json: Annotated[bool, Arg("print the JSON (the default when not on a terminal)")] = False,
    progress: Annotated[bool, Arg("a line per session on stderr (default: on a terminal)")] = False,
) -> None:
    """Score one hypothesis file against one reference file: DER, cpWER, tcpWER, WER as JSON.

    Rates are fractions. DER's collar is a half-width (0.25 = pyannote.metrics' collar=0.5 =
    md-eval's -c 0.25) at the reference's boundaries; --der-convention md-eval gives
    md-eval-22.pl's numbers; der_collar0 is always reported. wer is speaker-agnostic, tcorcwer
    and orcwer beside it; totals are ratios of sums; the diagnostics (e_lex, e_seg, e_attr,
    counts, r_time) are in the same object; notes lists every change made to the input, with
    counts; read names each file's format. On a terminal: a table, the notes on stderr.
    """
    import sys

    from msbench.ingest.adapters import read_uem_spans
    from msbench.scoring.checks import refuse_structural_problem
    from msbench.scoring.pair import score_pair
    from msbench.scoring.score_report import read_pair, say

    reading = read_pair(ref, hyp, ref_format, hyp_format, encoding)
    refuse_structural_problem(hyp, reading["hyp"].segments)  # what evaluate excludes, alike
    spans = read_uem_spans(str(uem), encoding).strict() if uem else None
    tolerances = {"segmentation_tolerance": segmentation_tolerance}
    tolerances["boundary_tolerance"] = boundary_tolerance
    scores = score_pair(
        reading["ref"].segments, reading["hyp"].segments, spans, collar, tcp_collar, tokenizer,
        tolerances, der_convention=der_convention,
        progress=sys.stderr if progress or sys.stderr.isatty() else None,
    )  # fmt: skip
    say({**scores, "read": {side: r.to_dict() for side, r in reading.items()}}, as_json=json)
