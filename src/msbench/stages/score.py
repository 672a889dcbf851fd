"""``msbench score``: one reference against one hypothesis: a table on a terminal, else (or with
``--json``) one JSON object; what each file was read as and every warning on standard error.
The work is :func:`msbench.score` (the same options, the same numbers)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from msbench.io.registry import SCORING_FORMATS
from msbench.scoring.der import DER_CONVENTIONS
from msbench.scoring.tokenizer import DEFAULT_TOKENIZER, TOKENIZERS
from msbench.stages.options import Arg

FORMATS = SCORING_FORMATS
LISTED = ", ".join(FORMATS)
Reference = Annotated[
    Path, Arg(f"reference, any of: {LISTED} (detected by content; RTTM: DER only)")
]
Hypothesis = Annotated[Path, Arg(f"hypothesis, any of: {LISTED} (detected by content)")]
Uem = Annotated[Path | None, Arg("UEM: each session's scored span (default: 0 to the last end)")]
Collar = Annotated[float, Arg("DER collar, seconds on EACH side of a reference boundary")]
Convention = Annotated[
    str, Arg("where DER collars go (msbench.scoring.der)", choices=DER_CONVENTIONS)
]
TcpCollar = Annotated[float, Arg("tcpWER collar (s)")]
Tokenizer = Annotated[str, Arg("text normalisation of both sides", choices=TOKENIZERS)]
SegmentationTolerance = Annotated[
    float, Arg("an I/D is segmentation when no speech of the other side is this close (s)")
]
BoundaryTolerance = Annotated[
    float, Arg("an overlap boundary is localised by a hypothesis boundary this close (s)")
]
Format = Annotated[str | None, Arg("force the file's format", choices=FORMATS)]
Encoding = Annotated[
    str | None, Arg("legacy text encoding tried where UTF-8 fails (gb2312, gbk, shift_jis, ...)")
]
Sessions = Annotated[
    str | None,
    Arg("score only the sessions whose id this regular expression matches (meeteval's --regex)"),
]
AsJson = Annotated[bool, Arg("print the JSON (the default when not on a terminal)")]
Threads = Annotated[
    int | None,
    Arg("threads for a large session (default: the CPUs available, at most 4; same numbers)"),
]
WordView = Annotated[
    Path | None,
    Arg(
        "write each session's word view (every word's cpWER and tcpWER class) to DIR/<session>.json"
    ),
]


def run(
    ref: Reference,
    hyp: Hypothesis,
    uem: Uem = None,
    collar: Collar = 0.25,
    der_convention: Convention = "boundaries",
    tcp_collar: TcpCollar = 5.0,
    tokenizer: Tokenizer = DEFAULT_TOKENIZER,
    segmentation_tolerance: SegmentationTolerance = 0.25,
    boundary_tolerance: BoundaryTolerance = 0.5,
    ref_format: Format = None,
    hyp_format: Format = None,
    encoding: Encoding = None,
    sessions: Sessions = None,
    json: AsJson = False,
    word_view: WordView = None,
    threads: Threads = None,
) -> None:
    """Score one hypothesis file against one reference file: DER, cpWER, tcpWER, WER as JSON.

    Rates are fractions. DER's collar is a half-width (0.25 = pyannote.metrics' collar=0.5 =
    md-eval's -c 0.25); --der-convention md-eval gives md-eval-22.pl's numbers. wer is
    speaker-agnostic; totals are ratios of sums; the diagnostics are in the same object; notes
    lists every change made to the input; read names each file's format. On a terminal: a
    table, notes and progress on stderr (--verbose: progress wherever stderr goes)."""
    import sys

    from msbench.api import score
    from msbench.api.one_pair import describe_read
    from msbench.scoring.score_report import say
    from msbench.verbosity import progress_stream

    progress = progress_stream()  # the files read, then a line per session and long step
    report = score(
        ref,
        hyp,
        uem=uem,
        collar=collar,
        der_convention=der_convention,
        tcp_collar=tcp_collar,
        tokenizer=tokenizer,
        segmentation_tolerance=segmentation_tolerance,
        boundary_tolerance=boundary_tolerance,
        ref_format=ref_format,
        hyp_format=hyp_format,
        encoding=encoding,
        sessions=sessions,
        progress=progress,
        word_view=word_view,
        threads=threads,
    )
    for (side, read), path in zip(report.read.items(), (ref, hyp), strict=True):
        print(f"{side}: {describe_read(read, path)}", file=sys.stderr) if not progress else None
    say(report.to_dict(), as_json=json)
