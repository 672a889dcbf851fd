"""CTM words with a speaker column: ``<file> <speaker> <start> <duration> <word> [<conf>]``, one
word a line, in file order.

The second field names the speaker stream (sclite's channel field, as in SCTK's
``mand_hyp.ctm``, where channel 1 and 2 are the two sides); NeMo's word CTMs put the speaker
there too. A duration is added to the start on the decimal texts (exact).
"""

from __future__ import annotations

from msbench.errors import InputError
from msbench.io.sample import Sample
from msbench.io.stm import numeric, stm_lines
from msbench.records import Segment
from msbench.textio import split_lines
from msbench.timeline import exact_sum, parse_seconds


def detect(sample: Sample) -> bool:
    """More lines read as CTM (five or six fields, a start and a duration, then a word that is
    not a number) than as STM."""
    ctm = sum(
        len(f) in (5, 6) and numeric(f[2]) and numeric(f[3]) and not numeric(f[4])
        for f in sample.fields
    )
    return ctm > stm_lines(sample)


def read_ctm(sample: Sample) -> list[Segment]:
    """Each word a segment of its speaker, in file order."""
    path, segments = sample.path, []
    for number, line in enumerate(split_lines(sample.text), start=1):
        fields = line.split()
        if not fields or line.startswith(";;"):
            continue
        if len(fields) < 5:
            raise InputError(
                path,
                f"CTM line has {len(fields)} fields",
                where=f"line {number}",
                fix="<file> <speaker> <start> <duration> <word>",
            )
        try:
            start, duration = parse_seconds(fields[2]), parse_seconds(fields[3])
            end = exact_sum(fields[2], fields[3]) if duration >= 0 else start + duration
        except (ValueError, ArithmeticError) as error:
            raise InputError(
                path,
                f"CTM start/duration {fields[2]!r} {fields[3]!r} are not finite numbers",
                where=f"line {number}",
            ) from error
        segments.append(
            Segment(fields[0], start, end, fields[1], fields[4], f"{path}:line {number}")
        )
    return segments
