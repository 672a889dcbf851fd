"""Every scoring reader of the io registry fed the same table of bad values (issue 59, root 5):
each number of a real or documented-shape sample replaced in turn by NaN, Infinity, -Infinity,
1e15 s, a negative time and null, and each word field of the JSON outputs by null. Each case
is refused in one line naming the file (and the entry), or excluded by the structural check
naming the segment, or read with every time as it was: never a traceback, never a time changed
without a word, never the word "None".
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import pytest

from msbench.errors import InputError
from msbench.io.json_outputs import TIME_BOUND_S
from msbench.io.read import read_output
from msbench.io.registry import SCORING_FORMATS
from msbench.scoring.checks import structural_problem
from tests.helpers.paths import REPO
from tests.unit.test_system_outputs import fixtures

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core

OUTPUTS = REPO / "tests" / "fixtures" / "outputs"
BAD_VALUES = ("NaN", "Infinity", "-Infinity", "1e15", "-5", "null")
#: A number of a sample: replaced, one at a time, by each bad value.
NUMBER = re.compile(r"(?<![\w.:,])\d+(?:\.\d+)?(?![\w])")
WORD_KEYS = {"text", "word", "value", "content", "punctuated_word", "lexical", "sentence",
             "Content", "transcript"}  # fmt: skip
#: The first numbers of each sample replaced (a sample's first turns hold every kind of field).
NUMBERS_PER_SAMPLE = 12

TEXTGRID = """File type = "ooTextFile"
Object class = "TextGrid"

xmin = 0
xmax = 4
tiers? <exists>
size = 2
item []:
    item [1]:
        class = "IntervalTier"
        name = "A"
        xmin = 0
        xmax = 4
        intervals: size = 1
        intervals [1]:
            xmin = 0.5
            xmax = 2.25
            text = "hello there friend"
    item [2]:
        class = "IntervalTier"
        name = "B"
        xmin = 0
        xmax = 4
        intervals: size = 1
        intervals [1]:
            xmin = 2.5
            xmax = 4
            text = "hi how are you"
"""


def samples() -> dict[str, tuple[str, str]]:
    """format -> (file name, text): one sample of every scoring format."""
    found = {fmt: sample for fmt, sample in fixtures().items()}
    for path in sorted(OUTPUTS.glob("*")):
        if path.suffix in (".json", ".txt"):
            fmt = read_output(path).format
            found.setdefault(fmt, (f"u{path.suffix}", path.read_text(encoding="utf-8")))
    found.update({
        "seglst": ("u.json", json.dumps([
            {"session_id": "u", "speaker": "A", "start_time": 0.5, "end_time": 2.25, "words": "hello there"},
            {"session_id": "u", "speaker": "B", "start_time": 2.5, "end_time": 4.0, "words": "hi you"}])),
        "rttm": ("u.rttm", "SPEAKER u 1 0.5 1.75 <NA> <NA> A <NA> <NA>\nSPEAKER u 1 2.5 1.5 <NA> <NA> B <NA> <NA>\n"),
        "stm": ("u.stm", "u 1 A 0.5 2.25 hello there friend\nu 1 B 2.5 4.0 hi how are you\n"),
        "ctm": ("u.ctm", "u A 0.5 0.5 hello\nu A 1.0 0.5 there\nu B 2.5 0.5 hi\n"),
        "text": ("u.txt", "[00:00.50 - 00:02.25] Speaker A: hello there friend\n"
                          "[00:02.50 - 00:04.00] Speaker B: hi how are you\n"),
        "textgrid": ("u.TextGrid", TEXTGRID),
        "lhotse": ("u.jsonl", "".join(json.dumps(
            {"id": f"s{k}", "recording_id": "u", "start": s, "duration": d, "channel": 0,
             "speaker": w, "text": t}) + "\n"
            for k, (w, s, d, t) in enumerate([("A", 0.5, 1.75, "hello there"), ("B", 2.5, 1.5, "hi you")]))),
    })  # fmt: skip
    return found


def test_every_scoring_format_has_a_sample():
    assert set(samples()) == set(SCORING_FORMATS)


def _mutations(text: str) -> list[tuple[str, str]]:
    """(what was changed, the changed text): numbers by each bad value, words by null."""
    out = []
    for match in list(NUMBER.finditer(text))[:NUMBERS_PER_SAMPLE]:
        for bad in BAD_VALUES:
            changed = text[: match.start()] + bad + text[match.end() :]
            out.append((f"number {match.group()!r} at {match.start()} -> {bad}", changed))
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return out
    for path in _word_fields(data, ())[:4]:
        out.append((f"word field {'/'.join(map(str, path))} -> null", json.dumps(_set(data, path))))
    return out


def _word_fields(node: Any, at: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    if isinstance(node, dict):
        here = [(*at, k) for k, v in node.items() if k in WORD_KEYS and isinstance(v, str) and v]
        return here + [p for k, v in node.items() for p in _word_fields(v, (*at, k))]
    if isinstance(node, list):
        return [p for k, v in enumerate(node) for p in _word_fields(v, (*at, k))]
    return []


def _set(data: Any, path: tuple[Any, ...]) -> Any:
    copy = json.loads(json.dumps(data))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = None
    return copy


def _times(segments: list[Any]) -> list[tuple[float, float]]:
    return [(s.start_time, s.end_time) for s in segments]


def _speakers(segments: list[Any]) -> set[str]:
    """A changed speaker field regroups words into other turns: times then move by design."""
    return {s.speaker for s in segments}


@pytest.mark.parametrize("fmt", SCORING_FORMATS)
def test_bad_values_are_named_never_read_as_words_or_times(tmp_path: Path, fmt: str):
    name, text = samples()[fmt]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    original = read_output(path, fmt).segments
    assert original, f"{fmt}: the sample reads as no segment"
    silently, unclear = [], []
    for what, changed in _mutations(text):
        path.write_text(changed, encoding="utf-8")
        try:
            segments = read_output(path, fmt).segments
        except InputError as error:
            message = str(error)
            if "\n" in message or str(path) not in message:
                unclear.append(f"{what}: {message!r}")
            continue
        except Exception as error:  # noqa: BLE001 - what this test is for
            unclear.append(f"{what}: a traceback {type(error).__name__}: {error}")
            continue
        if "None" in " ".join(s.words or "" for s in segments):
            silently.append(f"{what}: the word None")
        if structural_problem(segments):
            continue  # excluded by evaluate, refused by score: naming the segment
        if any(
            not math.isfinite(t) or abs(t) > TIME_BOUND_S for s in segments for t in _times([s])[0]
        ):
            silently.append(f"{what}: a bad time read")
        elif _speakers(segments) == _speakers(original) and _times(segments) != _times(original):
            silently.append(f"{what}: times changed without a word: {_times(segments)[:4]}")
    assert not silently and not unclear, (silently, unclear)


@pytest.mark.parametrize("fmt", ["stm", "srt", "whisper-cpp", "elevenlabs"])
def test_one_latin1_byte_is_named_with_its_line_offset_and_the_encoding_option(
    tmp_path: Path, fmt: str
):
    """Issue 59, root 8: an undecodable byte is named (line, byte, offset, ``--encoding``), not
    called binary; re-read with ``encoding="latin-1"`` it is the word it was."""
    name, text = samples()[fmt]
    path = tmp_path / name
    found = [*re.finditer("[Hh]ello", text)][-1]  # the last: a word the reader reads
    assert found is not None
    at = found.start() + 4  # "hello" -> "hellé" in Latin-1: one byte, 0xe9
    data = text[:at].encode() + b"\xe9" + text[at + 1 :].encode()
    path.write_bytes(data)
    line = text[:at].count("\n") + 1
    with pytest.raises(InputError) as caught:
        read_output(path)
    message = str(caught.value)
    assert f":line {line}: cannot decode byte 0xe9 at offset {at} as utf-8" in message
    assert "--encoding latin-1" in message and "binary" not in message
    words = " ".join(s.words or "" for s in read_output(path, encoding="latin-1").segments)
    assert "ellé" in words


def test_a_binary_file_is_called_binary(tmp_path: Path):
    path = tmp_path / "u.rttm"
    path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(InputError, match="is binary \\(NUL or control bytes\\), not text"):
        read_output(path)


def test_a_label_with_a_trailing_space_is_one_speaker_with_a_note(tmp_path: Path):
    """Issue 59 (an earlier round's item): ``"S05 "`` beside ``"S05"`` is one speaker, and the
    merge is said (the reader used to strip it silently, so no note could say it)."""
    import msbench

    reference = tmp_path / "r.stm"
    reference.write_text("u 1 S05 0.0 2.0 hello there\nu 1 S06 2.0 4.0 how are you\n")
    hypothesis = [
        {"session_id": "u", "speaker": "S05", "start_time": 0, "end_time": 1, "words": "hello"},
        {"session_id": "u", "speaker": "S05 ", "start_time": 1, "end_time": 2, "words": "there"},
        {"session_id": "u", "speaker": "S06", "start_time": 2, "end_time": 4, "words": "how are you"},
    ]  # fmt: skip
    path = tmp_path / "h.json"
    path.write_text(json.dumps(hypothesis))
    report = msbench.score(reference, path)
    assert report.rate("cpwer") == 0.0
    assert any("speaker labels 'S05' and 'S05 ' are one speaker 'S05'" in n for n in report.notes)


@pytest.mark.parametrize("pattern", ["{session}.wav", "{session}*.wav"])
def test_an_nfc_session_id_finds_an_nfd_audio_name(tmp_path: Path, pattern: str):
    """An earlier round's item: a session id typed in NFC (``Zoë``) finds the audio file a Mac
    saved in NFD (``Zoe`` + U+0308), exact name and glob alike."""
    import unicodedata

    from msbench.ingest.sheet import SourceSpec

    audio = tmp_path / unicodedata.normalize("NFD", "Zoë.wav")
    audio.write_bytes(b"RIFF")
    spec = SourceSpec("c", "rttm", str(tmp_path / "x"), audio=str(tmp_path / pattern))
    assert spec.audio_path(unicodedata.normalize("NFC", "Zoë")) == str(audio)
