"""The three correlation analyses: speaker similarity, acoustic quality, speaker number.

All are Spearman's rho (average ranks for ties) over points that belong to
recordings; a bootstrap resample repeats each drawn recording's points as
many times as it was drawn (:func:`msbench.diagnostics.bootstrap.pooled`).

2. **similarity**: one point per ordered pair ``(i, j)``, ``i != j``, of
   reference speakers of a recording that both have a CAM++ embedding and
   where ``i`` has aligned tokens in completely non-overlapping utterances
   (``r_ov = 0``): ``x = Sim_ij`` (``speaker_similarity.jsonl``),
   ``y = C_{i->j}`` on those tokens.
3. **acoustic**: one point per recording: ``d_N`` against E_lex and E_attr of
   its utterances with ``r_ov = 0`` lying farther than the reported ``delta``
   from every switch, and against ``R_time`` (all its scored units).
4. **speaker**: one point per recording outside ``speaker_number_excluded_ranges``:
   speaker count against E_attr, both centred by their source's mean
   (``rho_attr | D``); ``rho_attr | D,O`` also removes from both the least-squares
   linear effect of the (source-centred) overlap ratio. Means and fits are
   recomputed on every resample. A system whose units do not always hold every
   speaker of their recording (chunked units) is not evaluable here.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from msbench.diagnostics.analyses import (
    LEXICAL,
    Analysis,
    Context,
    Series,
    errors,
)
from msbench.diagnostics.analysis_inputs import SystemTables
from msbench.diagnostics.bootstrap import Estimate, Statistic, pooled, spearman


def _points_statistic(owner: np.ndarray, x: np.ndarray, y: np.ndarray) -> Statistic:
    """Spearman of points ``(x, y)``, each point repeated by its recording's weight."""

    def rho(weights: np.ndarray) -> float:
        repeat = weights[owner]
        return spearman(np.repeat(x, repeat), np.repeat(y, repeat))

    return pooled(rho)


def similarity_points(tables: SystemTables) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(recording index, Sim_ij, C_{i->j})`` of every ordered pair (module docstring)."""
    tokens: dict[tuple[str, str], dict[str, int]] = defaultdict(dict)
    for row in tables.pairs:
        key = (str(row["recording_id"]), str(row["ref_speaker"]))
        target = str(row["attributed_to"] or "")
        tokens[key][target] = tokens[key].get(target, 0) + int(row["tokens_clean"] or 0)
    owner, xs, ys = [], [], []
    for k, recording in enumerate(tables.recordings):
        matrix = tables.similarity.get(recording.recording_id, {})
        for (i, j), sim in sorted(matrix.items()):
            counts = tokens.get((recording.recording_id, i), {})
            aligned = sum(counts.values())
            if aligned:
                owner.append(k)
                xs.append(sim)
                ys.append(counts.get(j, 0) / aligned)
    return np.array(owner, dtype=int), np.array(xs), np.array(ys)


def similarity_analysis(tables: SystemTables, context: Context) -> Analysis:
    owner, x, y = similarity_points(tables)
    estimate = context.estimate(_points_statistic(owner, x, y))
    return Analysis(
        "Speaker similarity is associated with pairwise confusion.",
        "Spearman correlation between pairwise speaker similarity and pairwise confusion.",
        "Computed on completely non-overlapping utterances.",
        [Series("Spearman rho", "rho", estimate)],
        counts={"pairs": len(x), "pairs_confused": int((y > 0).sum())},
    )


def _recording_rho(x: np.ndarray, y: np.ndarray) -> Statistic:
    defined = np.isfinite(x) & np.isfinite(y)
    owner = np.flatnonzero(defined)
    return _points_statistic(owner, x[defined], y[defined])


def acoustic_analysis(tables: SystemTables, context: Context) -> Analysis:
    delta = float(context.settings["switch_neighbourhoods"][0])
    calm = [
        r
        for r in tables.utterances
        if float(r["overlap_exposure"]) == 0
        and (r["switch_distance"] is None or float(r["switch_distance"]) > delta)
    ]
    d_n = np.array([np.nan if r.d_n is None else r.d_n for r in tables.recordings])
    with np.errstate(invalid="ignore", divide="ignore"):
        e_lex = tables.per_recording(calm, lambda r: errors(r, LEXICAL)) / tables.per_recording(
            calm, lambda r: int(r["n_ref"] or 0)
        )
        e_attr = tables.per_recording(
            calm, lambda r: float(bool(r["misattributed"]))
        ) / tables.per_recording(calm, lambda r: float(bool(r["attributable"])))
        r_time = tables.per_recording(
            tables.units, lambda r: float(r["t_hyp"] or 0)
        ) / tables.per_recording(tables.units, lambda r: float(r["t_ref"] or 0))
    series = [
        Series("rho(d_N, E_lex)", "rho", context.estimate(_recording_rho(d_n, e_lex))),
        Series("rho(d_N, E_attr)", "rho", context.estimate(_recording_rho(d_n, e_attr))),
        Series("rho(d_N, R_time)", "rho", context.estimate(_recording_rho(d_n, r_time))),
    ]
    return Analysis(
        "Poor acoustic quality is associated with lexical errors and shorter predicted "
        "speech timelines.",
        "Correlation of acoustic degradation d_N with lexical error, attribution error, and "
        "hypothesized-to-reference speech duration ratio R_time.",
        f"Computed on non-overlapping utterances away (> {delta:g} s) from speaker switches. "
        "R_time measures duration contraction, not boundary displacement.",
        series,
        counts={"recordings": int(np.isfinite(d_n).sum()), "utterances": len(calm)},
    )


def centred(values: np.ndarray, groups: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``values`` minus the weighted mean of their group.

    >>> centred(np.array([1.0, 3, 10]), np.array([0, 0, 1]), np.array([1, 1, 1])).tolist()
    [-1.0, 1.0, 0.0]
    """
    out = values.astype(float).copy()
    for group in np.unique(groups):
        member = groups == group
        if weights[member].sum():
            out[member] -= np.average(values[member], weights=weights[member])
    return out


def residual(values: np.ndarray, control: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """``values`` minus their weighted least-squares line on ``control`` (both already centred)."""
    spread = float(np.sum(weights * control * control))
    if spread == 0:
        return values
    return values - control * float(np.sum(weights * control * values)) / spread


def _speaker_statistic(
    n: np.ndarray, e: np.ndarray, o: np.ndarray, source: np.ndarray, partial: bool
) -> Statistic:
    def rho(weights: np.ndarray) -> float:
        keep = weights > 0
        w, groups = weights[keep], source[keep]
        x, y = centred(n[keep], groups, w), centred(e[keep], groups, w)
        if partial:
            control = centred(o[keep], groups, w)
            x, y = residual(x, control, w), residual(y, control, w)
        return spearman(np.repeat(x, w), np.repeat(y, w))

    return pooled(rho)


def chunked_reason(tables: SystemTables) -> str | None:
    """Why the speaker analysis does not apply: a unit missing speakers of its recording."""
    speakers: dict[str, set[str]] = defaultdict(set)
    for row in tables.utterances:
        speakers[str(row["recording_id"])].add(str(row["speaker"]))
    short = [
        u["unit_id"]
        for u in tables.units
        if int(u["ref_speakers"] or 0) < len(speakers.get(str(u["recording_id"]), ()))
    ]
    if short:
        return (
            f"{len(short)} unit(s) do not hold every speaker of their recording "
            f"(first: {short[0]}); speaker number is a recording property"
        )
    return None


def speaker_analysis(tables: SystemTables, context: Context) -> Analysis:
    excluded = set(context.settings["speaker_number_excluded_ranges"])
    with np.errstate(invalid="ignore", divide="ignore"):
        e_attr = tables.per_recording(
            tables.utterances, lambda r: float(bool(r["misattributed"]))
        ) / tables.per_recording(tables.utterances, lambda r: float(bool(r["attributable"])))
    keep = np.array(
        [r.speaker_range not in excluded for r in tables.recordings], dtype=bool
    ) & np.isfinite(e_attr)
    n = np.array([r.speakers for r in tables.recordings], dtype=float)
    o = np.array([r.overlap_ratio for r in tables.recordings], dtype=float)
    codes = {s: k for k, s in enumerate(sorted({r.source for r in tables.recordings}))}
    source = np.array([codes[r.source] for r in tables.recordings])
    reason = chunked_reason(tables)
    series = []
    for label, partial in (("rho_attr | D", False), ("rho_attr | D,O", True)):
        statistic = _speaker_statistic(n, e_attr, o, source, partial)
        masked = _masked(statistic, keep)
        estimate = context.estimate(masked) if reason is None else None
        series.append(
            Series(label, "rho", estimate or Estimate(None, None, None, 0), headline=partial)
        )
    return Analysis(
        "Speaker number is associated with attribution difficulty after controls.",
        "Partial correlation of speaker number and E_attr after controlling for dataset "
        "identity and overlap ratio.",
        f"{', '.join(sorted(excluded)) or 'No range'} excluded to reduce dataset-specific bias. "
        "Association does not imply causation.",
        series,
        counts={"recordings": int(keep.sum())},
        not_evaluable=reason,
    )


def _masked(statistic: Statistic, keep: np.ndarray) -> Statistic:
    def masked(weights: np.ndarray) -> np.ndarray:
        return statistic(weights * keep[None, :])

    return masked
