"""Every file format msbench reads, declared once: its name, what a file of it holds, which
commands read it, and how it is recognised.

The annotation readers (:mod:`msbench.ingest.adapters`) and the scoring readers
(:mod:`msbench.scoring.formats`) register their functions under these names;
the command-line choices (``msbench describe --format``, ``msbench score
--ref-format/--hyp-format``), the dataset sheet's ``adapter`` column and the
systems' ``format:`` key all come from here, and a test checks that every
reader and every schema enum names exactly these (a format added in one place
and forgotten in another fails there, not at a user's run).

``annotation``: a source of the dataset sheet (``msbench ingest``, ``describe``);
``scoring``: a reference or a system output (``msbench score``, ``evaluate``);
``writer``: the function that writes segments in it (:mod:`msbench.scoring.format_writers`:
the baseline's outputs, the exports), where msbench writes the format.
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

ADAPTERS = "msbench.ingest.adapters."
OUTPUTS = "msbench.scoring.system_outputs:"
WRITERS = "msbench.scoring.format_writers:"


@dataclass(frozen=True)
class FileFormat:
    """One format: ``reader``, ``detector`` and ``writer`` name their functions as
    ``module:function`` (resolved by :func:`load` where they are used, so this module imports
    none); ``words``: whether it holds words (an RTTM holds turns only)."""

    name: str
    holds: str
    annotation: bool = False
    scoring: bool = False
    suffixes: tuple[str, ...] = ()
    reader: str = ""
    detector: str = ""
    writer: str = ""
    words: bool = True


def load(reference: str) -> Any:
    """``"msbench.ingest.adapters.rttm:read_rttm"`` -> the function (or any module attribute)."""
    module, _, name = reference.partition(":")
    return getattr(importlib.import_module(module), name)


def system_json(name: str, holds: str) -> FileFormat:
    """A system's or service's own JSON output: read by ``read_<name>`` and recognised by
    ``looks_<name>`` (``-`` as ``_``) in :mod:`msbench.scoring.system_outputs`."""
    function = name.replace("-", "_")
    return FileFormat(name, holds, scoring=True, suffixes=(".json",),
                      reader=f"{OUTPUTS}read_{function}", detector=f"{OUTPUTS}looks_{function}")  # fmt: skip


REGISTRY: tuple[FileFormat, ...] = (
    FileFormat("rttm", "NIST RTTM: speaker turns (words from STM or SegLST transcripts)",
               annotation=True, scoring=True, suffixes=(".rttm",), reader=ADAPTERS + "rttm:read_rttm",
               writer=WRITERS + "rttm_text", words=False),
    FileFormat("stm", "NIST STM: speaker-attributed utterances with words",
               annotation=True, scoring=True, suffixes=(".stm",), reader=ADAPTERS + "rttm:read_stm",
               writer=WRITERS + "stm_text"),
    FileFormat("textgrid", "Praat TextGrid, one tier per speaker (AISHELL-4, AliMeeting)",
               annotation=True, scoring=True, suffixes=(".textgrid",), reader=ADAPTERS + "textgrid:read_textgrid"),
    FileFormat("chime", "CHiME-5/6/7/8 and DiPCo <session>.json transcripts",
               annotation=True, suffixes=(".json",), reader=ADAPTERS + "chime:read_chime"),
    FileFormat("notsofar", "NOTSOFAR-1 <meeting>/gt_transcription.json",
               annotation=True, suffixes=("gt_transcription.json",), reader=ADAPTERS + "notsofar:read_notsofar"),
    FileFormat("seglst", "meeteval SegLST JSON (session_id, speaker, start_time, end_time, words)",
               annotation=True, scoring=True, suffixes=(".json",), reader=ADAPTERS + "seglst:read_seglst",
               writer=WRITERS + "seglst_text"),
    FileFormat("lhotse", "lhotse supervisions (+ recordings) manifests, JSON Lines",
               annotation=True, suffixes=(".jsonl", ".jsonl.gz")),
    FileFormat("magicdata", "MagicData-RAMC TXT/<session>.txt ([start,end] speaker gender text)",
               annotation=True, suffixes=(".txt",), reader=ADAPTERS + "magicdata:read_magicdata"),
    FileFormat("ctm", "CTM words with a speaker column (<file> <speaker> <start> <dur> <word>)",
               scoring=True, suffixes=(".ctm",)),
    FileFormat("text", "timestamped text as speech LLMs write it ([00:01.2 - 00:04.5] Speaker 1: ...)",
               scoring=True, suffixes=(".txt",)),
    system_json("vibevoice", "VibeVoice-ASR's JSON list (Start time, End time, Speaker ID, Content)"),
    system_json("whisperx", "WhisperX's result JSON (segments with start, end, text, speaker)"),
    system_json("assemblyai", "AssemblyAI's transcript JSON (utterances, times in ms)"),
    system_json("deepgram", "Deepgram's response JSON (results.utterances, or words with speaker)"),
    system_json("aws-transcribe", "Amazon Transcribe's output JSON (speaker_labels.segments, items)"),
    system_json("speechmatics", "Speechmatics' json-v2 transcript (results: words with speaker)"),
    system_json("google-stt", "Google Speech-to-Text's response JSON (words with speakerTag)"),
    FileFormat("srt", "SubRip subtitles whose cues start with their speaker (Speaker 1: ...)",
               scoring=True, suffixes=(".srt",)),
    FileFormat("webvtt", "WebVTT subtitles with voice spans (<v Speaker 1>) or speaker prefixes",
               scoring=True, suffixes=(".vtt",), writer=WRITERS + "webvtt_text"),
)  # fmt: skip

ANNOTATION_FORMATS: tuple[str, ...] = tuple(f.name for f in REGISTRY if f.annotation)
SCORING_FORMATS: tuple[str, ...] = tuple(f.name for f in REGISTRY if f.scoring)
#: What a system can be written as and scored from (words included): the baseline's choices.
OUTPUT_FORMATS: tuple[str, ...] = tuple(
    f.name for f in REGISTRY if f.scoring and f.writer and f.words
)
WRITABLE: tuple[str, ...] = tuple(f.name for f in REGISTRY if f.writer)
BY_NAME = {f.name: f for f in REGISTRY}


def write_text(name: str, segments: Iterable[Mapping[str, Any]]) -> str:
    """Segments (SegLST dicts) as the text of format ``name``.

    >>> write_text("rttm", [{"session_id": "u", "speaker": "A", "start_time": 1.5, "end_time": 2.0}])
    'SPEAKER u 1 1.5 0.5 <NA> <NA> A <NA> <NA>\\n'
    """
    writer = BY_NAME[name].writer
    if not writer:
        raise ValueError(f"msbench writes no {name} files (it writes {', '.join(WRITABLE)})")
    text: str = load(writer)(segments)
    return text


def closest_formats(name: str, choices: tuple[str, ...]) -> str:
    """The formats nearest to a name that is not one, for an error message.

    >>> closest_formats("segslt", ("rttm", "stm", "seglst", "ctm"))
    "did you mean 'seglst'? (formats: rttm, stm, seglst, ctm)"
    """
    near = difflib.get_close_matches(name, choices, n=2, cutoff=0.5)
    guess = f"did you mean {' or '.join(map(repr, near))}? " if near else ""
    return f"{guess}(formats: {', '.join(choices)})"
