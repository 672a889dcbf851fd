"""cpWER, tcpWER and the speaker-agnostic WER for any number of speakers, in linear memory.

These are meeteval's algorithms (0.4.3, ``meeteval/wer/wer/cp.py`` and
``time_constrained.py``), called on meeteval's own preprocessing and
distances, with two limits of meeteval's entry points removed:

* **Speakers.** meeteval refuses more than 20 speakers on a side ("Are you
  sure? Found a total of 34 speakers") as a sanity check; its algorithm has no
  such limit: a matrix of pairwise distances (meeteval's ``levenshtein_distance``
  and ``time_constrained_siso_levenshtein_distance``, one row of memory each)
  and scipy's ``linear_sum_assignment`` (meeteval's
  ``_minimum_permutation_assignment``). msbench runs exactly that, for any
  count; :func:`minimum_permutation` is meeteval's
  ``_minimum_permutation_word_error_rate`` without the guard.
* **Unmatched speakers.** meeteval names the speakers left without a partner from 52
  letters and stops beyond them; msbench names them from an unbounded list
  (:func:`unmatched_keys`), so a mis-clustering system with hundreds of speakers is scored.
* **Memory.** meeteval's tcpWER counts the errors of each assigned speaker
  pair with its alignment, which fills a (words of one speaker)^2 matrix:
  0.9 GB for one speaker pair of a 160-minute meeting, 3.6 GB for a
  two-speaker 240-minute one. msbench counts them on meeteval's alignment
  computed in linear memory (:mod:`msbench.scoring.matching.banded`), with
  the pair's distance as the band's bound: the same steps, so the same
  insertions, deletions and substitutions.

The speaker-agnostic WER is meeteval's cpWER with one speaker a side: the
assignment is the one pair, so its counts are meeteval's ``_siso_error_rate``
of the two streams, called directly (meeteval would first compute the same
distance once more for a 1 x 1 matrix).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

#: meeteval refuses more speakers than this on a side; msbench scores any number.
MEETEVAL_SPEAKER_LIMIT = 20


def unmatched_keys(count: int) -> list[str]:
    """Names for the speakers the assignment leaves unmatched, one per assigned pair at most:
    meeteval's default (``a-zA-Z``) runs out at 52 unmatched speakers ("Too few fallback keys
    provided!", 60 hypothesis speakers against 2); the names only label the empty streams that
    unmatched speakers are scored against, never a count.

    >>> unmatched_keys(2)
    ['msbench-unmatched-0', 'msbench-unmatched-1']
    """
    return [f"msbench-unmatched-{k}" for k in range(count)]


def minimum_permutation(
    reference: Mapping[str, Any],
    hypothesis: Mapping[str, Any],
    distance: Callable[[Any, Any], int],
    siso_error_rate: Callable[[Any, Any], Any],
) -> Any:
    """meeteval's ``_minimum_permutation_word_error_rate`` for any number of speakers."""
    from meeteval.io import SegLST
    from meeteval.wer.wer.cp import (
        CPErrorRate,
        _minimum_permutation_assignment,
        apply_cp_assignment,
    )
    from meeteval.wer.wer.error_rate import ErrorRate

    assignment, total, _ = _minimum_permutation_assignment(
        dict(reference), dict(hypothesis), distance, SegLST([])
    )
    if assignment:
        reference_new, hypothesis_new = apply_cp_assignment(
            assignment,
            reference=dict(reference),
            hypothesis=dict(hypothesis),
            fallback_keys=unmatched_keys(len(assignment)),
            missing=SegLST([]),
        )
    else:
        reference_new, hypothesis_new = dict(reference), dict(hypothesis)
    rate = sum(
        (siso_error_rate(r, hypothesis_new[speaker]) for speaker, r in reference_new.items()),
        start=ErrorRate.zero(),
    )
    if rate.errors != total:
        raise AssertionError(f"assignment cost {total} but {rate.errors} errors counted")
    return CPErrorRate(
        rate.errors,
        rate.length,
        insertions=rate.insertions,
        deletions=rate.deletions,
        substitutions=rate.substitutions,
        missed_speaker=max(0, len(reference) - len(hypothesis)),
        falarm_speaker=max(0, len(hypothesis) - len(reference)),
        scored_speaker=len(reference),
        assignment=assignment,
        reference_self_overlap=None,
        hypothesis_self_overlap=None,
    )


def siso_error_rate(reference: Sequence[Hashable], hypothesis: Sequence[Hashable]) -> Any:
    """meeteval's ``_siso_error_rate`` (kaldialign's counts), from the banded
    :func:`msbench.scoring.matching.edit_counts.edit_counts`: the same numbers, in a band."""
    from meeteval.wer.wer.error_rate import ErrorRate

    from msbench.scoring.matching.edit_counts import edit_counts

    found = edit_counts(reference, hypothesis)
    return ErrorRate(
        found["total"],
        len(reference),
        insertions=found["ins"],
        deletions=found["del"],
        substitutions=found["sub"],
        reference_self_overlap=None,
        hypothesis_self_overlap=None,
    )


def cpwer(reference: Any, hypothesis: Any) -> Any:
    """meeteval's ``cpwer`` of one session (SegLSTs, ``segment_if_available`` sort)."""
    from meeteval.wer.matching.cy_levenshtein import levenshtein_distance

    ref, hyp = _streams(reference, hypothesis, "segment_if_available")
    return minimum_permutation(ref, hyp, levenshtein_distance, siso_error_rate)


def agnostic_wer(reference: Any, hypothesis: Any) -> Any:
    """meeteval's ``cpwer`` with every speaker of each side as one, segments sorted by start."""
    ref, hyp = _streams(reference, hypothesis, "segment")
    if len(ref) != 1 or len(hyp) != 1:
        raise ValueError("the speaker-agnostic WER needs one speaker a side")
    return siso_error_rate(next(iter(ref.values())), next(iter(hyp.values())))


def _streams(reference: Any, hypothesis: Any, sort: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each speaker's words in order, as meeteval's ``cp_word_error_rate`` prepares them."""
    from meeteval.io import asseglst
    from meeteval.wer.preprocess import preprocess

    ref, hyp, _, _ = preprocess(
        asseglst(reference, required_keys=("speaker", "words")),
        asseglst(hypothesis, required_keys=("speaker", "words")),
        keep_keys=("speaker", "words"),
        remove_empty_segments=False,
        reference_sort=sort,
        hypothesis_sort=sort,
        segment_representation="segment",
    )
    return tuple(  # type: ignore[return-value]
        {
            k: [w for words in v.T["words"] for w in words]
            for k, v in side.groupby("speaker").items()
        }
        for side in (ref, hyp)
    )


def tcpwer(
    reference: Any,
    hypothesis: Any,
    collar: float,
    reference_pseudo_word_level_timing: str,
    hypothesis_pseudo_word_level_timing: str,
) -> Any:
    """meeteval's ``tcpwer`` of one session, any number of speakers, linear memory."""
    from meeteval.io import asseglst
    from meeteval.wer.preprocess import preprocess
    from meeteval.wer.wer.time_constrained import time_constrained_siso_levenshtein_distance

    keys = ("start_time", "end_time", "words", "speaker")
    ref, hyp, _, _ = preprocess(
        asseglst(reference, required_keys=keys),
        asseglst(hypothesis, required_keys=keys),
        keep_keys=keys,
        remove_empty_segments=False,
        reference_sort="segment",
        hypothesis_sort="segment",
        collar=collar,
        reference_pseudo_word_level_timing=reference_pseudo_word_level_timing,
        hypothesis_pseudo_word_level_timing=hypothesis_pseudo_word_level_timing,
        segment_representation="word",
    )
    return minimum_permutation(
        ref.groupby("speaker"),
        hyp.groupby("speaker"),
        time_constrained_siso_levenshtein_distance,
        time_constrained_siso_error_rate,
    )


def time_constrained_siso_error_rate(reference: Any, hypothesis: Any) -> Any:
    """meeteval's ``_time_constrained_siso_error_rate``, on its alignment in linear memory."""
    from meeteval.wer.matching.cy_levenshtein import time_constrained_levenshtein_distance
    from meeteval.wer.wer.error_rate import ErrorRate

    from msbench.scoring.matching.banded import PruneOverflow, align_indices, tokens_of

    reference = reference.filter(lambda s: s["words"])
    hypothesis = hypothesis.filter(lambda s: s["words"])
    ref_words, hyp_words = reference.T["words"], hypothesis.T["words"]
    ref_timing = reference.T["start_time", "end_time"]
    hyp_timing = hypothesis.T["start_time", "end_time"]
    if not ref_words or not hyp_words:
        cost = time_constrained_levenshtein_distance(ref_words, hyp_words, ref_timing, hyp_timing)
        return ErrorRate(
            cost,
            len(ref_words),
            insertions=len(hyp_words),
            deletions=len(ref_words),
            substitutions=0,
            reference_self_overlap=None,
            hypothesis_self_overlap=None,
        )
    ids: dict[Any, int] = {}
    ref, hyp = tokens_of(ref_words, ref_timing, ids), tokens_of(hyp_words, hyp_timing, ids)
    cost = time_constrained_levenshtein_distance(ref_words, hyp_words, ref_timing, hyp_timing)
    try:
        steps = align_indices(ref, hyp, cost, exact=True)
    except PruneOverflow:  # meeteval's own sums would wrap: its own count (full matrix)
        from meeteval.wer.wer.time_constrained import _time_constrained_siso_error_rate

        return _time_constrained_siso_error_rate(reference, hypothesis)
    insertions = sum(1 for a, _ in steps if a is None)
    deletions = sum(1 for _, b in steps if b is None)
    substitutions = sum(
        1 for a, b in steps if a is not None and b is not None and ref.symbols[a] != hyp.symbols[b]
    )
    return ErrorRate(
        insertions + deletions + substitutions,
        len(ref_words),
        insertions=insertions,
        deletions=deletions,
        substitutions=substitutions,
        reference_self_overlap=None,
        hypothesis_self_overlap=None,
    )
