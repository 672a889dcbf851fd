"""DER as the references compute it, written out for the differential suite.

pyannote.metrics on each speaker's merged turns (msbench's rule for a
speaker's own overlap), and a count of 10 ms frames with the optimal mapping;
in both, the collars lie at the reference's segment boundaries as written
(every segment of positive length, touching ones included), where md-eval
and pyannote.metrics put them (``tests/unit/test_der_md_eval.py`` compares
md-eval itself).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import numpy as np

from msbench.records import Segment
from tests.helpers.differential import Scored


def centis(seconds: float) -> int:
    return round(seconds * 100)


def merged_turns(segments: list[Segment]) -> dict[str, list[tuple[int, int]]]:
    """Each speaker's segments joined where they overlap or touch, in centiseconds."""
    by_speaker: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for s in segments:
        if s.end_time > s.start_time:
            by_speaker[s.speaker].append((centis(s.start_time), centis(s.end_time)))
    merged = {}
    for speaker, spans in by_speaker.items():
        out: list[list[int]] = []
        for a, b in sorted(spans):
            if out and a <= out[-1][1]:
                out[-1][1] = max(out[-1][1], b)
            else:
                out.append([a, b])
        merged[speaker] = [(a, b) for a, b in out]
    return merged


def session_parts(
    item: Scored,
) -> Iterator[
    tuple[str, dict[str, Any], list[Segment], list[Segment], tuple[tuple[float, float], ...]]
]:
    """(session, msbench's entry, reference, hypothesis, scored spans) of every session."""
    for entry in item.stm["sessions"]:
        session = entry["session_id"]
        ref = [s for s in item.case.reference if s.session_id == session]
        hyp = [s for s in item.case.hypothesis if s.session_id == session]
        if "sessions_renamed" in item.case.kinds:
            hyp = item.case.hypothesis
        spans = (item.case.uem or {}).get(session)
        if spans is None:
            spans = ((0.0, max((s.end_time for s in ref + hyp), default=0.0)),)
        yield session, entry, ref, hyp, spans


def pyannote_der(
    ref: list[Segment], hyp: list[Segment], spans: Any, collar: float
) -> dict[str, float]:
    from pyannote.core import Annotation, Timeline
    from pyannote.core import Segment as Interval
    from pyannote.metrics.diarization import DiarizationErrorRate

    def annotation(segments: list[Segment]) -> Annotation:
        out = Annotation()
        for speaker, turns in merged_turns(segments).items():
            for k, (a, b) in enumerate(turns):
                out[Interval(a / 100, b / 100), f"{speaker}{k}"] = speaker
        return out

    uem = Timeline([Interval(a, b) for a, b in spans if b > a]).support()
    zones = Timeline(
        [
            Interval(t / 100 - collar, t / 100 + collar)
            for s in ref
            if s.end_time > s.start_time
            for t in (centis(s.start_time), centis(s.end_time))
        ]
    ).support()
    if collar:
        uem = uem.extrude(zones)
    parts = DiarizationErrorRate(collar=0, skip_overlap=False)(
        annotation(ref), annotation(hyp), uem=uem, detailed=True
    )
    return {
        "missed": parts["missed detection"], "false_alarm": parts["false alarm"],
        "confusion": parts["confusion"], "scored": parts["total"],
    }  # fmt: skip


def frame_der(
    ref: list[Segment], hyp: list[Segment], spans: Any, collar: float
) -> dict[str, float]:
    """DER by counting 10 ms frames, scored frames being the UEM minus the collars."""
    from scipy.optimize import linear_sum_assignment

    ref_turns, hyp_turns = merged_turns(ref), merged_turns(hyp)
    end = 1 + max(
        [centis(b) for _, b in spans]
        + [b for t in (*ref_turns.values(), *hyp_turns.values()) for _, b in t]
    )
    mask = np.zeros(end, dtype=bool)
    for a, b in spans:
        mask[centis(a) : centis(b)] = True
    width = round(collar * 100)
    for s in ref:
        if width and s.end_time > s.start_time:
            for t in (centis(s.start_time), centis(s.end_time)):
                mask[max(0, t - width) : t + width] = False

    def grid(turns: dict[str, list[tuple[int, int]]]) -> np.ndarray:
        out = np.zeros((max(1, len(turns)), end), dtype=bool)
        for k, spans_ in enumerate(turns.values()):
            for a, b in spans_:
                out[k, a:b] = True
        return out & mask

    r, h = grid(ref_turns), grid(hyp_turns)
    n_ref, n_hyp = r.sum(axis=0), h.sum(axis=0)
    together = (r[:, None, :] & h[None, :, :]).sum(axis=2)
    rows, cols = linear_sum_assignment(-together)
    correct = together[rows, cols].sum()
    return {
        "missed": np.maximum(n_ref - n_hyp, 0).sum() / 100,
        "false_alarm": np.maximum(n_hyp - n_ref, 0).sum() / 100,
        "confusion": (np.minimum(n_ref, n_hyp).sum() - correct) / 100,
        "scored": n_ref.sum() / 100,
    }
