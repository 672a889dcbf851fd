"""One system on a benchmark: every inference unit scored, excluded or flagged (``units.csv``).

A system's outputs are a folder of per-unit files (``<unit_id>.json|.stm|.rttm|.ctm|.txt``,
any format of :mod:`msbench.io.read`) or one SegLST/STM file whose
``session_id`` is the unit id (or the recording's session for whole-recording
units). Times are absolute (recording time) or relative to the unit's start
(``times: relative``). What each unit's row holds, and why a unit is excluded
or degraded, is in :mod:`msbench.scoring.checks`.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from msbench.errors import InputError
from msbench.io.read import read_segments
from msbench.io.reading_notes import collected
from msbench.records import Segment
from msbench.scoring.checks import (
    NO_SPEAKER,
    SPEAKERLESS_NOTE,
    degradations,
    language_mismatch,
    one_speaker,
    runaway,
    speech_seconds,
    structural_problem,
)
from msbench.scoring.der import DEFAULT_DER_CONVENTION
from msbench.scoring.pair import TOLERANCES, Scores, score_session
from msbench.scoring.tokenizer import tokenize
from msbench.scoring.units import Unit

#: What a unit scored from speaker times alone says (RTTM, pyannoteAI: DER and its parts).
DER_ONLY_NOTE = "speaker times only (no words): DER and its parts, no WER family"
OUTPUT_SUFFIXES = (".json", ".stm", ".rttm", ".ctm", ".txt", ".TextGrid", ".srt", ".vtt")


@dataclass(frozen=True)
class SystemSpec:
    """One entry of the config's ``systems:`` list."""

    name: str
    system_id: str
    outputs: Path
    times: str = "absolute"  # or "relative" to the unit's start
    format: str | None = None
    text_pattern: str | None = None  # line regex of timestamped text (named groups)

    @classmethod
    def from_config(cls, entry: Mapping[str, Any]) -> SystemSpec:
        return cls(
            name=entry.get("name") or entry["id"],
            system_id=entry["id"],
            outputs=Path(entry["outputs"]),
            times=entry.get("times", "absolute"),
            format=entry.get("format"),
            text_pattern=entry.get("text_pattern"),
        )


#: A system entry's keys -> msbench evaluate's options (the workflow passes each entry so).
ENTRY_OPTIONS = {
    "outputs": "--outputs",
    "id": "--system-id",
    "name": "--name",
    "times": "--times",
    "format": "--format",
    "text_pattern": "--text-pattern",
    "units": "--units",
    "max_unit_seconds": "--max-unit-seconds",
}


def evaluate_options(entry: Mapping[str, Any]) -> str:
    """A config ``systems:`` entry as ``msbench evaluate`` options, each value shell-quoted.

    >>> evaluate_options({"id": "x", "outputs": "out dir", "simulate": {"seed": 1}})
    "--outputs 'out dir' --system-id x"
    """
    import shlex

    return " ".join(
        f"{option} {shlex.quote(str(entry[key]))}"
        for key, option in ENTRY_OPTIONS.items()
        if entry.get(key) is not None
    )


class MissingOutput(Exception):
    """No output for a unit (reason in the message)."""


def _unit_file(spec: SystemSpec, unit: Unit) -> Path:
    refused = spec.outputs / f"{unit.unit_id}.refused"
    if refused.exists():
        raise MissingOutput(
            f"refused: {refused.read_text(encoding='utf-8').strip() or 'marked by the runner'}"
        )
    for suffix in OUTPUT_SUFFIXES:
        path = spec.outputs / f"{unit.unit_id}{suffix}"
        if path.exists():
            return path
    raise MissingOutput(f"missing: no {unit.unit_id}.* in {spec.outputs}")


def load_output(spec: SystemSpec, unit: Unit, single_file: list[Segment] | None) -> list[Segment]:
    """The unit's hypothesis in recording time; InputError when it cannot be read."""
    if single_file is not None:
        session = unit.recording_id.split("::", 1)[1]
        segments = [s for s in single_file if s.session_id in (unit.unit_id, session)]
        if not segments:
            raise MissingOutput(f"missing: no segment of {unit.unit_id} in {spec.outputs}")
    else:
        path = _unit_file(spec, unit)
        segments = read_segments(path, spec.format, unit.unit_id, spec.text_pattern)
    if spec.times == "relative":
        segments = [
            s.with_times(s.start_time + unit.start, s.end_time + unit.start) for s in segments
        ]
    segments, _ = one_speaker(segments)  # an output without any speaker label: one speaker
    return [replace(s, session_id=unit.unit_id) for s in segments]


def speakerless(hypothesis: Sequence[Segment] | None) -> bool:
    """The output named no speaker and is scored as one (:func:`msbench.scoring.checks.
    one_speaker`)."""
    return bool(hypothesis) and all(s.speaker == NO_SPEAKER for s in hypothesis or ())


def score_unit(
    unit: Unit,
    reference: Sequence[Segment],
    hypothesis: Sequence[Segment],
    language: str,
    settings: Mapping[str, Any],
    threads: int = 1,
) -> tuple[Scores | None, str, list[str]]:
    """``(scores or None if excluded, exclusion reason, degradation reasons)``. An output of
    speaker times alone (RTTM, pyannoteAI: no word at all) is scored for DER and its parts,
    the WER family left empty with the reason in the notes."""
    problem = structural_problem(hypothesis)
    if problem:
        return None, problem, []
    if hypothesis and all(s.words is None for s in hypothesis):
        scores = _score(unit, reference, hypothesis, settings, with_words=False)
        return replace(scores, notes=(DER_ONLY_NOTE, *scores.notes)), "", []
    tokenizer = settings["tokenizer"]
    tokens = [t for s in hypothesis for t in tokenize(s.words, tokenizer)]
    if not tokens and any(tokenize(s.words, tokenizer) for s in reference):
        return None, "refused: the output holds no word", []
    mismatch = runaway(len(tokens), unit.end - unit.start) or language_mismatch(
        " ".join(tokens), language
    )
    if mismatch:
        return None, mismatch, []
    scores = _score(unit, reference, hypothesis, settings, with_word_view=True, threads=threads)
    if speakerless(hypothesis):
        scores = replace(scores, notes=(SPEAKERLESS_NOTE, *scores.notes))
    return scores, "", degradations(hypothesis, reference, tokens, scores.speech)


def _score(
    unit: Unit,
    reference: Sequence[Segment],
    hypothesis: Sequence[Segment],
    settings: Mapping[str, Any],
    with_word_view: bool = False,
    with_words: bool = True,
    threads: int = 1,
) -> Scores:
    return score_session(
        [replace(s, session_id=unit.unit_id) for s in reference],
        hypothesis,
        unit.uem,
        unit.unit_id,
        settings["collar"],
        settings["tcp_collar"],
        settings["tokenizer"],
        with_words,
        tolerances={k: settings[k] for k in TOLERANCES if k in settings},
        der_convention=settings.get("der_convention", DEFAULT_DER_CONVENTION),
        with_word_view=with_word_view,
        threads=threads,
    )


def penalty_row(
    system: str,
    unit: Unit,
    reference: Sequence[Segment],
    reason: str,
    settings: Mapping[str, Any],
) -> dict[str, Any]:
    """An excluded unit's worst case for the ``penalised`` view: the scores of an empty
    hypothesis (every reference word deleted, all reference speech missed), same conventions
    as every other unit (collars, tokenizer, UEM)."""
    scores = _score(unit, reference, [], settings)
    row = unit_row(system, unit, reference, [], scores, reason, [])
    return {**row, "status": "excluded", "notes": "penalised: scored as an empty hypothesis"}


def unit_row(
    system: str,
    unit: Unit,
    reference: Sequence[Segment],
    hypothesis: Sequence[Segment] | None,
    scores: Scores | None,
    reason: str,
    degraded: list[str],
) -> dict[str, Any]:
    from msbench.scoring.aggregate import score_columns

    row: dict[str, Any] = {
        "system": system,
        "unit_id": unit.unit_id,
        "recording_id": unit.recording_id,
        "start": unit.start,
        "end": unit.end,
        "status": "excluded" if scores is None else ("degraded" if degraded else "scored"),
        "reason": reason,
        "degradation": "; ".join(degraded),
        "ref_speakers": len({s.speaker for s in reference}),
        "hyp_speakers": len({s.speaker for s in hypothesis}) if hypothesis is not None else None,
        "no_speaker_labels": speakerless(hypothesis),
        "t_ref": scores.speech[0] if scores else speech_seconds(reference),
        "t_hyp": scores.speech[1]
        if scores
        else (speech_seconds(hypothesis) if hypothesis is not None else None),
        "notes": "; ".join(scores.notes) if scores is not None else "",
    }
    if scores is not None:
        row.update(score_columns(scores))
    return row


@dataclass
class Evaluation:
    """A system's rows: one per unit, per reference utterance of a scored unit, per speaker pair."""

    units: list[dict[str, Any]] = field(default_factory=list)
    utterances: list[dict[str, Any]] = field(default_factory=list)
    pairs: list[dict[str, Any]] = field(default_factory=list)
    penalties: list[dict[str, Any]] = field(default_factory=list)  # excluded units, worst case

    def add_diagnosis(self, system: str, unit: Unit, scores: Scores | None) -> None:
        if scores is None or scores.detail is None:
            return
        ids = {"system": system, "unit_id": unit.unit_id, "recording_id": unit.recording_id}
        for row in scores.detail.utterances:
            fields = asdict(row)
            self.utterances.append({**ids, **fields, "attributable": row.attributable})
        clean = scores.detail.confusion_clean
        for (ref, target), tokens in sorted(scores.detail.confusion.items()):
            self.pairs.append(
                {
                    **ids,
                    "ref_speaker": ref,
                    "attributed_to": target,
                    "tokens": tokens,
                    "tokens_clean": clean.get((ref, target), 0),
                }
            )


def evaluate_units(
    spec: SystemSpec,
    units: Sequence[Unit],
    references: Mapping[str, Sequence[Segment]],
    languages: Mapping[str, str],
    settings: Mapping[str, Any],
    on_word_view: Callable[[Unit, dict[str, Any]], None] | None = None,
    threads: int = 1,
) -> Evaluation:
    """One row per unit, in unit order, and the diagnostics rows (see the module docstring).

    ``on_word_view``: called with each scored unit's word view (:mod:`msbench.scoring.
    word_view`) as it is made (not kept); ``threads``: :mod:`msbench.scoring.threads`."""
    from msbench.scoring.units import unit_reference

    single = read_segments(spec.outputs, spec.format) if spec.outputs.is_file() else None
    evaluation = Evaluation()
    for unit in units:
        reference = unit_reference(references.get(unit.recording_id, []), unit)
        hypothesis: list[Segment] | None = None
        try:
            with collected() as notes:  # what the reader left out, said in the unit's notes
                hypothesis = load_output(spec, unit, single)
            scores, reason, degraded = score_unit(
                unit, reference, hypothesis, languages.get(unit.recording_id, ""), settings, threads
            )
            if scores is not None and notes:
                scores = replace(scores, notes=(*notes, *scores.notes))
        except MissingOutput as missing:
            scores, reason, degraded = None, str(missing), []
        except InputError as error:
            kind = "incomplete" if error.problem.startswith("incomplete") else "unparseable"
            scores, reason, degraded = None, f"{kind}: {error}", []
        except MemoryError as error:  # one long unit never loses the system's other units
            why = str(error) or "out of memory"
            scores, reason, degraded = None, f"not scored: unit {unit.unit_id}: {why}", []
        except Exception as error:  # one unit never sinks the system's other units
            why = f"{type(error).__name__}: {error}"
            scores, reason, degraded = None, f"not scored: unit {unit.unit_id}: {why}", []
            hypothesis = None  # not measured either: whatever failed may fail there too
            print(f"msbench evaluate: {spec.system_id}: {reason}", file=sys.stderr)
        if scores is None and hypothesis is not None and structural_problem(hypothesis):
            hypothesis = None  # its times cannot be measured (the reason says why)
        evaluation.units.append(
            unit_row(spec.system_id, unit, reference, hypothesis, scores, reason, degraded)
        )
        if scores is None:
            evaluation.penalties.append(
                penalty_row(spec.system_id, unit, reference, reason, settings)
            )
        evaluation.add_diagnosis(spec.system_id, unit, scores)
        if on_word_view is not None and scores is not None and scores.word_view is not None:
            on_word_view(unit, scores.word_view)
    _say_if_all_excluded(spec, evaluation.units)
    return evaluation


def _say_if_all_excluded(spec: SystemSpec, rows: Sequence[Mapping[str, Any]]) -> None:
    """A system none of whose units was scored is said on standard error, with the reasons."""
    excluded = [row for row in rows if row["status"] == "excluded"]
    if excluded and len(excluded) == len(rows):
        reasons = Counter(str(row["reason"]).split(":")[0] for row in excluded)
        print(
            f"msbench evaluate: system {spec.system_id!r}: every one of its {len(excluded)} "
            f"units is excluded ({', '.join(f'{n} {r}' for r, n in reasons.most_common())}): "
            f"check its outputs ({spec.outputs}) and unit_scores.csv's reasons",
            file=sys.stderr,
        )
