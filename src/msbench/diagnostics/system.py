"""All five analyses of one system, and its error decomposition: ``conditions.json``.

Every analysis of a system draws on the same bootstrap weights (one seed), and
so does every system of a benchmark (same recordings, same draws), so that
intervals of two systems are paired.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msbench.diagnostics.analyses import (
    LEXICAL,
    SEGMENTATION,
    Analysis,
    Context,
    Series,
    errors,
    overlap_analysis,
    turn_analysis,
)
from msbench.diagnostics.analysis_inputs import SystemTables
from msbench.diagnostics.bootstrap import Bootstrap, ratio
from msbench.diagnostics.correlations import (
    acoustic_analysis,
    similarity_analysis,
    speaker_analysis,
)

#: The analyses in Table 2's order; their names are the keys of condition_results.json.
ANALYSES = {
    "overlap": overlap_analysis,
    "similarity": similarity_analysis,
    "acoustic": acoustic_analysis,
    "turn": turn_analysis,
    "speaker": speaker_analysis,
}


def bootstrap_of(settings: Mapping[str, Any]) -> Bootstrap:
    section = settings.get("bootstrap", {})
    return Bootstrap(
        int(section.get("resamples", 1000)),
        int(section.get("seed", 0)),
        float(section.get("confidence", 0.95)),
    )


def decomposition(tables: SystemTables, context: Context) -> Analysis:
    """E_lex, E_seg and E_attr (%) over all scored utterances, with intervals (Fig. 2)."""
    rows = tables.utterances
    n_ref = tables.per_recording(rows, lambda r: int(r["n_ref"] or 0))
    numerators = {
        "E_lex": (tables.per_recording(rows, lambda r: errors(r, LEXICAL)), n_ref),
        "E_seg": (tables.per_recording(rows, lambda r: errors(r, SEGMENTATION)), n_ref),
        "E_attr": (
            tables.per_recording(rows, lambda r: float(bool(r["misattributed"]))),
            tables.per_recording(rows, lambda r: float(bool(r["attributable"]))),
        ),
    }
    series = [
        Series(label, "%", context.estimate(ratio(num, den)), tested=False)
        for label, (num, den) in numerators.items()
    ]
    return Analysis(
        "Error decomposition.",
        "Lexical (S + I_lex + D_lex) and segmentation (I_seg + D_seg) errors per reference "
        "token, and misattributed utterances per attributable utterance.",
        "All scored units.",
        series,
    )


def analysis_context(
    recordings: int, settings: Mapping[str, Any], scoring: Mapping[str, Any]
) -> tuple[Bootstrap, Context]:
    """The bootstrap of ``diagnostics.bootstrap`` and the context every analysis shares: one
    weights matrix over the benchmark's recordings, so two systems' estimates are paired."""
    boot = bootstrap_of(settings)
    context = Context(
        boot.weights(recordings),
        boot.confidence,
        {**settings, "boundary_tolerance": scoring.get("boundary_tolerance", 0.5)},
    )
    return boot, context


def run_analyses(tables: SystemTables, context: Context) -> dict[str, Analysis]:
    """The error decomposition, then the five analyses in Table 2's order."""
    return {
        "decomposition": decomposition(tables, context),
        **{name: run(tables, context) for name, run in ANALYSES.items()},
    }


def diagnose_system(
    tables: SystemTables, settings: Mapping[str, Any], scoring: Mapping[str, Any]
) -> dict[str, Any]:
    """The ``conditions.json`` object of one system."""
    boot, context = analysis_context(len(tables.recordings), settings, scoring)
    analyses = run_analyses(tables, context)
    return {
        "system_id": tables.system_id,
        "system": tables.system,
        "bootstrap": {
            "cluster": "recording",
            "resamples": boot.resamples,
            "seed": boot.seed,
            "confidence": boot.confidence,
            "interval": "percentile",
            "significant": "the interval excludes 0",
        },
        "settings": {
            key: settings[key]
            for key in (
                "overlap_threshold",
                "switch_neighbourhoods",
                "speaker_number_excluded_ranges",
            )
        },
        "recordings": len(tables.recordings),
        "decomposition": analyses.pop("decomposition").to_dict(),
        "analyses": {name: analysis.to_dict() for name, analysis in analyses.items()},
    }
