"""Every file format msbench reads, declared once, in the order content detection tries them:
its name, what a file of it holds, where it came from, and the functions of its module that
read, recognise and write it (imported here directly: the arrows are the imports).

The command-line choices (``msbench describe --format``, ``msbench score
--ref-format/--hyp-format``), the dataset sheet's ``adapter`` column, the systems' ``format:``
key, the baseline's ``output_format``, content detection (:func:`msbench.io.read.detect_format`)
and the format tables of the docs all come from :data:`REGISTRY`; a test checks that every
schema enum names exactly these. A new format is one module and one line here.

``annotations``: reads a file into sessions (``msbench ingest``, ``describe``, and scoring where
the format has no ``segments`` reader); ``segments``: reads a system's output or a reference
(:class:`msbench.io.sample.Sample` -> segments); ``detect``: does a file's content look like it;
``write``: its segments as text, where msbench writes the format.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from msbench.io import (
    assemblyai,
    aws_transcribe,
    azure_batch,
    chime,
    ctm,
    deepgram,
    elevenlabs,
    google_stt,
    lhotse_manifest,
    magicdata,
    moss,
    nemo,
    notsofar,
    openai_diarized,
    pyannoteai,
    revai,
    rttm,
    seglst,
    speechmatics,
    srt,
    stm,
    text,
    textgrid,
    vibevoice,
    webvtt,
    whisper_cpp,
    whisperx,
)
from msbench.io.json_outputs import json_detector, json_reader
from msbench.io.sample import Sample
from msbench.records import Segment, SessionAnnotation

Segments = Iterable[Mapping[str, Any]]


@dataclass(frozen=True)
class FileFormat:
    """One format. ``words``: whether it holds words (an RTTM holds turns only); ``looks_for``:
    the keys or lines its detector looks for (said when a file matches no format);
    ``sample``: where the samples its tests read came from."""

    name: str
    holds: str
    suffixes: tuple[str, ...] = ()
    annotations: Callable[..., list[SessionAnnotation]] | None = None
    segments: Callable[[Sample], list[Segment]] | None = None
    detect: Callable[[Sample], bool] | None = None
    write: Callable[[Segments], str] | None = None
    annotation: bool = False
    words: bool = True
    looks_for: str = ""
    sample: str = ""
    #: its content cannot be taken for another format's (a service's JSON, a model's tagged
    #: answer): recognised by content even in a file whose name says another format
    distinctive: bool = False

    @property
    def scoring(self) -> bool:
        """A reference or a system output may be in it."""
        return self.segments is not None or (self.annotation and self.detect is not None)


def system_json(
    name: str, holds: str, module: ModuleType, sample: str, words: bool = True
) -> FileFormat:
    """A system's or service's own JSON: its module's ``looks``, ``read`` and ``LOOKS_FOR``."""
    return FileFormat(
        name,
        holds,
        (".json",),
        segments=json_reader(name, module.read),
        detect=json_detector(module.looks),
        words=words,
        looks_for=module.LOOKS_FOR,
        sample=sample,
        distinctive=True,
    )


REGISTRY: tuple[FileFormat, ...] = (
    FileFormat(
        "vibevoice",
        "VibeVoice-ASR's answer: its JSON list (Start/End/Speaker/Content, or the prompt's Start time/End time/Speaker ID), the chat-wrapped decoded text, or the post-processed start_time/end_time/speaker_id/text",
        (".json",),
        segments=vibevoice.read_vibevoice,
        detect=vibevoice.detect,
        looks_for=vibevoice.LOOKS_FOR,
        distinctive=True,
        sample="Transformers docs (model_doc/vibevoice_asr.md raw output); microsoft/VibeVoice vibevoice_asr_processor.py",
    ),
    system_json(
        "openai-diarized",
        "OpenAI gpt-4o-transcribe-diarize diarized_json (segments of type transcript.text.segment)",
        openai_diarized,
        "written here in the diarized_json shape of the openai SDK's TranscriptionDiarized",
    ),
    FileFormat(
        "whisperx",
        "WhisperX's result JSON (segments with start, end, text, speaker); a Whisper result + <unit>.rttm",
        (".json",),
        segments=whisperx.read_whisperx,
        detect=json_detector(whisperx.looks),
        distinctive=True,
        looks_for=whisperx.LOOKS_FOR,
        sample="written here from whisperx assign_word_speakers' result shape",
    ),
    system_json(
        "assemblyai",
        "AssemblyAI's transcript JSON (utterances, times in ms)",
        assemblyai,
        "written here from AssemblyAI's documented transcript object",
    ),
    system_json(
        "deepgram",
        "Deepgram's response JSON (results.utterances, or words with speaker)",
        deepgram,
        "written here from Deepgram's documented diarized response",
    ),
    system_json(
        "aws-transcribe",
        "Amazon Transcribe's output JSON (speaker_labels.segments, items)",
        aws_transcribe,
        "written here from Amazon Transcribe's documented output (speaker_labels, items)",
    ),
    system_json(
        "speechmatics",
        "Speechmatics' json-v2 transcript (results: words with speaker)",
        speechmatics,
        "written here from Speechmatics' documented json-v2",
    ),
    system_json(
        "google-stt",
        'Google Speech-to-Text\'s response JSON (words with speakerTag; "1.4s" or {seconds, nanos} times)',
        google_stt,
        "written here from Google's documented RecognizeResponse (REST strings; Node.js {seconds, nanos}: tests/fixtures/outputs)",
    ),
    system_json(
        "elevenlabs",
        "ElevenLabs Scribe's response JSON (words of type word with speaker_id)",
        elevenlabs,
        "written here from ElevenLabs' documented speech-to-text response (no public diarized sample found)",
    ),
    system_json(
        "revai",
        "Rev.ai's transcript JSON (monologues of text and punct elements)",
        revai,
        "written here from Rev.ai's documented transcript JSON (no public sample file found)",
    ),
    FileFormat(
        "whisper-cpp",
        "whisper.cpp's whisper-cli -oj / -ojf JSON (transcription with offsets in ms; speaker with -di)",
        (".json",),
        segments=whisper_cpp.read_whisper_cpp,
        detect=json_detector(whisper_cpp.looks),
        distinctive=True,
        looks_for=whisper_cpp.LOOKS_FOR,
        sample="written here in the shape of whisper.cpp's output_json (examples/cli)",
    ),
    system_json(
        "azure-batch",
        "Azure AI Speech batch transcription JSON (recognizedPhrases with speaker, ticks)",
        azure_batch,
        "written here from Microsoft's documented batch transcription result",
    ),
    system_json(
        "pyannoteai",
        "pyannoteAI API diarization output (output.diarization: speaker, start, end)",
        pyannoteai,
        "written here from pyannoteAI's documented job output",
        words=False,
    ),
    system_json(
        "nemo",
        "NVIDIA NeMo speaker-attributed transcript JSON (words/sentences with speaker)",
        nemo,
        "written here in the shape of NeMo's OfflineDiarWithASR JSON (words: word, start_time, end_time, speaker)",
    ),
    FileFormat(
        "moss",
        "MOSS-Transcribe-Diarize's tagged transcript ([start][S01]text[end] turns)",
        (".txt",),
        segments=moss.read_moss,
        detect=moss.detect,
        distinctive=True,
        sample="written here in the grammar of its documentation and transcribe.cpp's arch/moss/diarize.h",
    ),
    FileFormat(
        "lhotse",
        "lhotse supervisions (+ recordings) manifests, JSON Lines (gzipped or not)",
        (".jsonl", ".jsonl.gz"),
        annotations=lhotse_manifest.read_lhotse,
        detect=lhotse_manifest.detect,
        annotation=True,
        looks_for="JSON lines of {id, recording_id, start, duration, speaker, text}",
        sample="written by lhotse itself in the tests (SupervisionSet.to_file); msbench's own lhotse export",
    ),
    FileFormat(
        "seglst",
        "meeteval SegLST JSON (session_id, speaker, start_time, end_time, words)",
        (".json",),
        annotations=seglst.read_seglst,
        detect=seglst.detect,
        write=seglst.write,
        annotation=True,
        looks_for="a list of {session_id, speaker, start_time, end_time, words}",
        sample="meeteval's example files (tests/fixtures/reference/meeteval)",
    ),
    FileFormat(
        "srt",
        "SubRip subtitles whose cues start with their speaker (Speaker 1: ...)",
        (".srt",),
        segments=srt.read_srt,
        detect=srt.detect,
        sample="written here in the shape whisperx --diarize writes (speaker prefixes)",
    ),
    FileFormat(
        "webvtt",
        "WebVTT subtitles with voice spans (<v Speaker 1>) or speaker prefixes",
        (".vtt",),
        segments=webvtt.read_webvtt,
        detect=webvtt.detect,
        write=webvtt.write,
        sample="written here: W3C WebVTT voice spans, speaker prefixes",
    ),
    FileFormat(
        "textgrid",
        "Praat TextGrid, one tier per speaker (AISHELL-4, AliMeeting)",
        (".textgrid",),
        annotations=textgrid.read_textgrid,
        detect=textgrid.detect,
        annotation=True,
        sample="AISHELL-4, AliMeeting, the MS-Bench release's textgrids/",
    ),
    FileFormat(
        "rttm",
        "NIST RTTM: speaker turns (words from STM or SegLST transcripts)",
        (".rttm",),
        annotations=rttm.read_rttm,
        detect=rttm.detect,
        write=rttm.write,
        annotation=True,
        words=False,
        sample="dscore and SCTK test files (tests/fixtures/reference); AMI annotations",
    ),
    FileFormat(
        "text",
        "timestamped text as speech LLMs write it ([00:01.2 - 00:04.5] Speaker 1: ...)",
        (".txt",),
        segments=text.read_text_turns,
        detect=text.detect,
        sample="written here in the shapes speech LLMs answer in",
    ),
    FileFormat(
        "ctm",
        "CTM words with a speaker column (<file> <speaker> <start> <dur> <word>)",
        (".ctm",),
        segments=ctm.read_ctm,
        detect=ctm.detect,
        sample="SCTK's mand_hyp.ctm (tests/fixtures/reference/sctk)",
    ),
    FileFormat(
        "stm",
        "NIST STM: speaker-attributed utterances with words",
        (".stm",),
        annotations=stm.read_stm,
        detect=stm.detect,
        write=stm.write,
        annotation=True,
        sample="SCTK and meeteval test files (tests/fixtures/reference)",
    ),
    FileFormat(
        "chime",
        "CHiME-5/6/7/8 and DiPCo <session>.json transcripts",
        (".json",),
        annotations=chime.read_chime,
        annotation=True,
    ),
    FileFormat(
        "notsofar",
        "NOTSOFAR-1 <meeting>/gt_transcription.json",
        ("gt_transcription.json",),
        annotations=notsofar.read_notsofar,
        annotation=True,
    ),
    FileFormat(
        "magicdata",
        "MagicData-RAMC TXT/<session>.txt ([start,end] speaker gender text)",
        (".txt",),
        annotations=magicdata.read_magicdata,
        annotation=True,
    ),
)

BY_NAME = {f.name: f for f in REGISTRY}
ANNOTATION_FORMATS: tuple[str, ...] = tuple(f.name for f in REGISTRY if f.annotation)
SCORING_FORMATS: tuple[str, ...] = tuple(f.name for f in REGISTRY if f.scoring)
#: What a system can be written as and scored from (words included): the baseline's choices.
OUTPUT_FORMATS: tuple[str, ...] = tuple(
    f.name for f in REGISTRY if f.scoring and f.write and f.words
)
WRITABLE: tuple[str, ...] = tuple(f.name for f in REGISTRY if f.write)


def write_text(name: str, segments: Segments) -> str:
    """Segments (SegLST dicts) as the text of format ``name``.

    >>> write_text("rttm", [{"session_id": "u", "speaker": "A", "start_time": 1.5, "end_time": 2.0}])
    'SPEAKER u 1 1.5 0.5 <NA> <NA> A <NA> <NA>\\n'
    """
    write = BY_NAME[name].write
    if write is None:
        raise ValueError(f"msbench writes no {name} files (it writes {', '.join(WRITABLE)})")
    return write(segments)


def closest_formats(name: str, choices: tuple[str, ...]) -> str:
    """The formats nearest to a name that is not one, for an error message.

    >>> closest_formats("segslt", ("rttm", "stm", "seglst", "ctm"))
    "did you mean 'seglst'? (formats: rttm, stm, seglst, ctm)"
    """
    near = difflib.get_close_matches(name, choices, n=2, cutoff=0.5)
    guess = f"did you mean {' or '.join(map(repr, near))}? " if near else ""
    return f"{guess}(formats: {', '.join(choices)})"
