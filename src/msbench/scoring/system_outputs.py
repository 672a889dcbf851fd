"""What systems and services actually write, read into :class:`msbench.records.Segment`.

Each reader takes a file's text and the unit id it is scored as; its format
is named in :mod:`msbench.file_formats` and recognised by :func:`detect_json`
or :func:`detect_subtitles`. Where a format has turns (utterances, segments,
cues, speaker segments), each turn is one segment with the words the format
gives it; where it has only words with speakers (Speechmatics, Google
Speech-to-Text, Deepgram without utterances), consecutive words of one
speaker are one segment, from the first word's start to the last's end. Times
in milliseconds (AssemblyAI) are divided on their integer texts, exactly.
The shapes follow each tool's documentation and outputs found in public
repositories (cited per reader); the test fixtures are written from them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from msbench.errors import InputError
from msbench.records import Segment
from msbench.textio import split_lines
from msbench.timeline import parse_seconds

Word = tuple[float, float, str, str]  # start, end, speaker, word


def _seconds(value: Any) -> float:
    """``1.5``, ``"1.5"``, ``"1.500s"`` (Google's duration strings), ``"00:00:01.5"``."""
    if isinstance(value, str):
        value = value.strip().removesuffix("s")
    return parse_seconds(value)


def _label(value: Any) -> str:
    """A speaker field as a label; null is ``""`` (no speaker, named by the structural check),
    never the text ``"None"``: ``_label(None), _label(0) == "", "0"``."""
    return "" if value is None else str(value)


def _millis(value: Any, where: str) -> float:
    """Integer milliseconds as seconds, exactly; anything else (float seconds) is an error, never
    truncated (``int(1.5)`` put every utterance in the first 30 ms)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise ValueError(f"{where}: {value!r} is not integer milliseconds (AssemblyAI's times)")
    return float(Decimal(int(value)) / 1000)


def _turns_of_words(words: Iterable[Word], session: str, origin: str) -> list[Segment]:
    """Consecutive words of one speaker as one segment (first start to last end)."""
    segments: list[Segment] = []
    run: list[Word] = []
    for word in [*words, (0.0, 0.0, "\0", "")]:
        if run and word[2] != run[-1][2]:
            text = " ".join(w[3] for w in run if w[3])
            segments.append(Segment(session, run[0][0], run[-1][1], run[0][2], text, origin))
            run = []
        run.append(word)
    return segments


def read_vibevoice(data: Any, session: str, origin: str) -> list[Segment]:
    """VibeVoice-ASR: a JSON list of ``{"Start time", "End time", "Speaker ID", "Content"}``
    (its vLLM server's transcription; microsoft/VibeVoice docs/vibevoice-asr.md)."""
    return [
        Segment(
            session,
            _seconds(e["Start time"]),
            _seconds(e["End time"]),
            _label(e["Speaker ID"]),
            str(e.get("Content") or ""),
            f"{origin}:entry {k}",
        )  # fmt: skip
        for k, e in enumerate(data, start=1)
    ]


def read_whisperx(data: Any, session: str, origin: str) -> list[Segment]:
    """WhisperX: ``{"segments": [{"start", "end", "text", "speaker", "words"}], "language"}``
    (whisperx.assign_word_speakers); a segment without ``speaker`` takes its words' most
    frequent one, else it is left without one (an incomplete output)."""
    found = []
    for k, s in enumerate(data["segments"], start=1):
        speaker = s.get("speaker")
        if speaker is None:
            named = [w["speaker"] for w in s.get("words", []) if w.get("speaker")]
            speaker = max(set(named), key=named.count) if named else ""
        found.append(Segment(session, _seconds(s["start"]), _seconds(s["end"]), str(speaker),
                             str(s.get("text") or "").strip(), f"{origin}:segment {k}"))  # fmt: skip
    return found


def read_assemblyai(data: Any, session: str, origin: str) -> list[Segment]:
    """AssemblyAI (speaker_labels): ``utterances`` of ``{"speaker", "start", "end", "text"}``,
    times in integer milliseconds."""
    return [
        Segment(
            session,
            _millis(u["start"], f"utterance {k} start"),
            _millis(u["end"], f"utterance {k} end"),
            _label(u["speaker"]),
            str(u.get("text") or ""),
            f"{origin}:utterance {k}",
        )  # fmt: skip
        for k, u in enumerate(data["utterances"], start=1)
    ]


def read_deepgram(data: Any, session: str, origin: str) -> list[Segment]:
    """Deepgram (diarize=true): ``results.utterances`` when requested, else the first
    channel's words ``{"word", "punctuated_word", "start", "end", "speaker"}``."""
    results = data["results"]
    if results.get("utterances"):
        return [
            Segment(
                session,
                _seconds(u["start"]),
                _seconds(u["end"]),
                _label(u.get("speaker")),
                str(u.get("transcript") or ""),
                f"{origin}:utterance {k}",
            )  # fmt: skip
            for k, u in enumerate(results["utterances"], start=1)
        ]
    words = results["channels"][0]["alternatives"][0]["words"]
    return _turns_of_words(
        ((_seconds(w["start"]), _seconds(w["end"]), _label(w.get("speaker")),
          str(w.get("punctuated_word") or w["word"])) for w in words), session, origin,
    )  # fmt: skip


def read_aws_transcribe(data: Any, session: str, origin: str) -> list[Segment]:
    """Amazon Transcribe (ShowSpeakerLabels): each ``results.speaker_labels.segments`` turn,
    with the ``results.items`` pronunciations that start inside it (punctuation joined)."""
    results = data["results"]
    turns = results["speaker_labels"]["segments"]
    words: list[list[str]] = [[] for _ in turns]
    starts = [_seconds(t["start_time"]) for t in turns]
    for item in results.get("items", []):
        content = item["alternatives"][0]["content"]
        if item.get("type") == "punctuation":
            for bucket in reversed(words):
                if bucket:
                    bucket[-1] += content
                    break
            continue
        start = _seconds(item["start_time"])
        k = max((i for i, s in enumerate(starts) if s <= start), default=0)
        words[k].append(content)
    return [
        Segment(
            session,
            starts[k],
            _seconds(t["end_time"]),
            str(t["speaker_label"]),
            " ".join(words[k]),
            f"{origin}:speaker segment {k + 1}",
        )  # fmt: skip
        for k, t in enumerate(turns)
    ]


def read_speechmatics(data: Any, session: str, origin: str) -> list[Segment]:
    """Speechmatics (diarization: speaker): ``results`` of ``{"type": "word", "start_time",
    "end_time", "alternatives": [{"content", "speaker"}]}``; punctuation joins the word before."""
    words: list[Word] = []
    for r in data["results"]:
        best = r["alternatives"][0]
        if r.get("type") == "punctuation" and words:
            s, e, who, w = words[-1]
            words[-1] = (s, e, who, w + best["content"])
        elif r.get("type") == "word":
            words.append((_seconds(r["start_time"]), _seconds(r["end_time"]),
                          _label(best.get("speaker")), best["content"]))  # fmt: skip
    return _turns_of_words(words, session, origin)


def read_google_stt(data: Any, session: str, origin: str) -> list[Segment]:
    """Google Speech-to-Text (diarization): the last result's words, each with ``startTime`` /
    ``startOffset`` (``"1.400s"``), ``endTime`` / ``endOffset`` and ``speakerTag`` /
    ``speakerLabel`` (with diarization the last result holds every word, tagged); without
    speaker tags, every result's words in order (the last result alone then lost the others)."""
    results = [r for r in data["results"] if r.get("alternatives")]
    last = results[-1]["alternatives"][0].get("words", []) if results else []
    tagged = any("speakerTag" in w or "speakerLabel" in w for w in last)
    words = last if tagged else [
        w for r in results for w in r["alternatives"][0].get("words", [])
    ]  # fmt: skip
    return _turns_of_words(
        ((_seconds(w.get("startOffset", w.get("startTime", "0s"))),
          _seconds(w.get("endOffset", w.get("endTime", "0s"))),
          _label(w.get("speakerLabel", w.get("speakerTag"))), str(w["word"])) for w in words),
        session, origin,
    )  # fmt: skip


def looks_vibevoice(d: Any) -> bool:
    return isinstance(d, list) and bool(d) and isinstance(d[0], dict) and "Speaker ID" in d[0]


def looks_whisperx(d: Any) -> bool:
    return isinstance(d, dict) and isinstance(d.get("segments"), list)


def looks_assemblyai(d: Any) -> bool:
    return isinstance(d, dict) and isinstance(d.get("utterances"), list)


def _results(d: Any, kind: type) -> bool:
    return isinstance(d, dict) and isinstance(d.get("results"), kind) and bool(d["results"])


def looks_deepgram(d: Any) -> bool:
    return _results(d, dict) and "channels" in d["results"]


def looks_aws_transcribe(d: Any) -> bool:
    return _results(d, dict) and "speaker_labels" in d["results"]


def looks_speechmatics(d: Any) -> bool:
    return _results(d, list) and isinstance(d["results"][0], dict) and "type" in d["results"][0]


def looks_google_stt(d: Any) -> bool:
    first = d["results"][0] if _results(d, list) else {}
    return isinstance(first, dict) and "alternatives" in first and "type" not in first


@cache
def json_readers() -> dict[
    str, tuple[Callable[[Any], bool], Callable[[Any, str, str], list[Segment]]]
]:
    """The JSON system outputs of the registry: name -> (does a document look like it, reader)."""
    from msbench.file_formats import REGISTRY, load

    return {f.name: (load(f.detector), load(f.reader)) for f in REGISTRY if f.detector}


def detect_json(data: Any) -> str | None:
    """The system-output format a parsed JSON document has, or None (SegLST, CHiME, ...)."""
    return next((name for name, (looks, _) in json_readers().items() if looks(data)), None)


#: The problem text of an output that stops before its structure closes (the paper's
#: structurally incomplete output: a decoder cut off at its token limit); evaluate excludes
#: it as ``incomplete``, never scoring the part that survived.
CUT_OFF = "incomplete: the output stops before its structure closes (cut off at a token limit?)"


def json_problem(path: str | Path, text: str, error: json.JSONDecodeError) -> InputError:
    """A JSON error: ``incomplete`` when it is at the end of the text (an unclosed document,
    or a string that runs to the end), else invalid JSON at its line."""
    if error.pos >= len(text.rstrip()) - 1 or error.msg.startswith("Unterminated string"):
        return InputError(path, f"{CUT_OFF}: {error.msg} at the end", where=f"line {error.lineno}")
    return InputError(path, f"invalid JSON: {error.msg}", where=f"line {error.lineno}")


def _speakerless(data: Any) -> bool:
    """A Whisper / faster-whisper result: segments (and words) without any speaker."""
    segments = data.get("segments") or []
    return not any(s.get("speaker") or any(w.get("speaker") for w in s.get("words") or [])
                   for s in segments)  # fmt: skip


def join_diarization(data: Any, rttm: Path, session: str, origin: str) -> list[Segment]:
    """The paper's cascade: a Whisper / faster-whisper result's words, each given to the
    diarization turn (``<unit>.rttm`` beside it) it overlaps most, else the nearest turn
    (WhisperX's ``assign_word_speakers`` with ``fill_nearest``); a segment without word
    times counts as one word. Consecutive words of one speaker are one segment."""
    from msbench.ingest.adapters.rttm import read_rttm

    turns = [(t.start_time, t.end_time, t.speaker) for a in read_rttm(rttm) for t in a.segments]
    if not turns:
        raise InputError(rttm, "holds no speaker turn to give the words to")
    words: list[Word] = []
    for segment in data["segments"]:
        spans = segment.get("words") or [{"start": segment["start"], "end": segment["end"],
                                          "word": segment.get("text", "")}]  # fmt: skip
        for w in spans:
            start, end = _seconds(w["start"]), _seconds(w["end"])
            overlap = [(min(end, b) - max(start, a), -min(abs(start - b), abs(end - a)), who)
                       for a, b, who in turns]  # fmt: skip
            words.append((start, end, max(overlap)[2], str(w["word"]).strip()))
    return _turns_of_words(words, session, f"{origin} + {rttm}")


def read_json_output(path: str | Path, text: str, fmt: str, session: str) -> list[Segment]:
    """A JSON system output of format ``fmt``; a missing key is an error naming it. A
    Whisper result without speakers is joined with the diarization RTTM beside it."""
    try:
        data = json.loads(text)
        rttm = Path(path).with_suffix(".rttm")
        if fmt == "whisperx" and _speakerless(data) and rttm.is_file():
            return join_diarization(data, rttm, session, str(path))
        return json_readers()[fmt][1](data, session, str(path))
    except json.JSONDecodeError as error:
        raise json_problem(path, text, error) from error
    except (KeyError, IndexError, TypeError, ValueError) as error:
        raise InputError(
            path, f"not a {fmt} output: {type(error).__name__} {error}",
            fix=f"check the file, or pass another --hyp-format (it was read as {fmt})",
        ) from error  # fmt: skip


CUE_TIME = re.compile(
    r"^\s*(?P<start>(?:\d+:)?\d+:\d+[.,]\d+)\s*-->\s*(?P<end>(?:\d+:)?\d+:\d+[.,]\d+)"
)
PREFIX = re.compile(r"^\[?(?P<speaker>[^\]:：]{1,40}?)\]?\s*[:：]\s*(?P<words>.*)$")


#: How a complete last line ends when a file has no final line end: a sentence's end, a
#: closing quote or bracket, or a closing tag (``</v>``: the voice span closed; an opening
#: ``<v Speaker B>`` with nothing after it is a cut).
SENTENCE_END = re.compile(r"(?:[.!?。！？…\"'”’)\]」』]|</[A-Za-z.]+>)\s*$")


def unterminated_end(text: str, cue_parts: bool = False) -> str | None:
    """Why a text without a final line end looks cut off (None: it is complete or ends with one).

    Read from the content, not the missing line end alone: the last line is a cue's number or
    times (``cue_parts``, subtitles), or text that stops without a sentence's end (mid-word, as
    a decoder at its token limit stops). A last line that ends a sentence is complete.

    >>> unterminated_end("1\\n00:00:01,000 --> 00:00:02,000\\nA: hello."), unterminated_end("A: hel")
    (None, 'the last line stops mid-sentence without a final line end')
    """
    if not text.strip() or text.endswith("\n"):
        return None
    last = text.rstrip().rsplit("\n", 1)[-1].strip()
    if cue_parts and ("-->" in last or last.isdigit()):
        return "the file ends inside a cue's number or times"
    if not SENTENCE_END.search(last):
        return "the last line stops mid-sentence without a final line end"
    return None


VOICE_SPAN = re.compile(r"<v(?:\.[^ >]*)?\s+(?P<speaker>[^>]+)>(?P<words>.*?)(?=<v[\s.]|$)")


def _voices(path: str | Path, body: str, line: int) -> list[tuple[str, str]]:
    """A cue's ``(speaker, words)``: one per WebVTT voice span (a cue may hold several, each
    then given the cue's times), else the one ``Speaker:`` prefix; a cue without one is an error.

    >>> _voices("x.vtt", "<v Speaker 0>I did not know.</v> <v Speaker 1>Neither did I.</v>", 3)
    [('Speaker 0', 'I did not know.'), ('Speaker 1', 'Neither did I.')]
    """
    spans = list(VOICE_SPAN.finditer(body)) if body.lstrip().startswith("<v") else []
    said = spans or [m for m in [PREFIX.match(body)] if m is not None]
    if not said:
        raise InputError(path, f"cue {body[:60]!r} names no speaker", where=f"line {line}",
                         fix="write <v Speaker 1> or a 'Speaker 1:' prefix")  # fmt: skip
    return [(m["speaker"].strip(), re.sub(r"</?[^>]+>", "", m["words"]).strip()) for m in said]


def detect_subtitles(text: str) -> str | None:
    """``webvtt`` (a ``WEBVTT`` header) or ``srt`` (numbered cues with ``-->`` times)."""
    stripped = text.lstrip("\ufeff \n")
    if stripped.startswith("WEBVTT"):
        return "webvtt"
    lines = [line for line in split_lines(stripped) if line.strip()]
    if len(lines) >= 2 and lines[0].strip().isdigit() and CUE_TIME.match(lines[1]):
        return "srt"
    return None


def read_subtitles(path: str | Path, text: str, session: str) -> list[Segment]:
    """SRT or WebVTT cues whose text names its speaker: WebVTT voice spans ``<v Speaker 1>``,
    or a ``Speaker 1:`` / ``[SPEAKER_00]:`` prefix; a cue without a speaker is an error."""
    lines = split_lines(text)
    if problem := unterminated_end(text, cue_parts=True):
        raise InputError(path, f"{CUT_OFF}: {problem}", where=f"line {len(lines)}")
    segments: list[Segment] = []
    cue: tuple[float, float, list[str]] | None = None
    for number, line in enumerate([*lines, ""], start=1):
        if (timing := CUE_TIME.match(line)) is not None:
            try:
                start, end = (_seconds(timing[k].replace(",", ".")) for k in ("start", "end"))
            except ValueError as error:
                raise InputError(path, str(error), where=f"line {number}") from error
            cue = (start, end, [])
        elif cue is not None and line.strip():
            cue[2].append(line.strip())
        elif cue is not None:
            if not cue[2] and number > len(lines):
                raise InputError(path, f"{CUT_OFF}: the last cue has a time but no text",
                                 where=f"line {number - 1}")  # fmt: skip
            body = " ".join(cue[2])
            origin = f"{path}:line {number - 1}"
            for speaker, words in _voices(path, body, number - 1):
                segments.append(Segment(session, cue[0], cue[1], speaker, words, origin))
            cue = None
    return segments
