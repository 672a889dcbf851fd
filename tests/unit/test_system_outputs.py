"""Readers for what systems and services write: each format, written as its documentation and
public outputs show it, says the same three turns; detected by content; scored as SegLST is.

The shapes follow: VibeVoice-ASR (microsoft/VibeVoice docs/vibevoice-asr.md: keys Start time,
End time, Speaker ID, Content), WhisperX (whisperx assign_word_speakers result), AssemblyAI
(transcript JSON, utterances in ms), Deepgram (prerecorded response, diarize/utterances),
Amazon Transcribe (output JSON with speaker_labels.segments and items; cf. the two-speaker
output in vilvadot/transcritter src/Transcription/two_speakers.js), Speechmatics (json-v2),
Google Speech-to-Text (v1 words with startTime/speakerTag, v2 startOffset/speakerLabel), SRT
and WebVTT (W3C voice spans). The fixtures below are written here, not copied.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msbench.errors import InputError
from msbench.io.read import detect_format, read_segments
from msbench.scoring.pipeline import score_pair

#: runs from the core install alone (scripts/core_tests.sh, Python 3.13, no extras)
pytestmark = pytest.mark.core

#: The three turns every fixture says: (speaker, start, end, words)
TURNS = [("A", 0.5, 2.25, "hello there friend"), ("B", 2.5, 4.0, "hi how are you"),
         ("A", 4.5, 6.125, "fine thanks")]  # fmt: skip


def words(turn: tuple[str, float, float, str]) -> list[tuple[float, float, str]]:
    """The turn's words, evenly spread over it (exact binary fractions)."""
    speaker, start, end, text = turn
    parts = text.split()
    step = (end - start) / len(parts)
    return [(start + k * step, start + (k + 1) * step, w) for k, w in enumerate(parts)]


def fixtures() -> dict[str, tuple[str, str]]:
    """format -> (file name, text)."""
    vibevoice = [{"Start time": s, "End time": e, "Speaker ID": int(w == "B"), "Content": t}
                 for w, s, e, t in TURNS]  # fmt: skip
    whisperx = {"language": "en", "segments": [
        {"start": s, "end": e, "text": " " + t, "speaker": f"SPEAKER_0{int(w == 'B')}",
         "words": [{"word": x, "start": a, "end": b, "speaker": f"SPEAKER_0{int(w == 'B')}"}
                   for a, b, x in words((w, s, e, t))]} for w, s, e, t in TURNS]}  # fmt: skip
    assemblyai = {"id": "x", "status": "completed", "utterances": [
        {"speaker": w, "start": round(s * 1000), "end": round(e * 1000), "text": t, "confidence": 0.9,
         "words": []} for w, s, e, t in TURNS]}  # fmt: skip
    deepgram = {"metadata": {}, "results": {"channels": [{"alternatives": [{"transcript": "", "words": [
        {"word": x, "punctuated_word": x, "start": a, "end": b, "speaker": int(w == "B")}
        for w, s, e, t in TURNS for a, b, x in words((w, s, e, t))]}]}]}}  # fmt: skip
    items = []
    for w, s, e, t in TURNS:
        for a, b, x in words((w, s, e, t)):
            items.append({"start_time": str(a), "end_time": str(b), "type": "pronunciation",
                          "alternatives": [{"confidence": "0.99", "content": x}]})  # fmt: skip
    items.insert(
        3, {"type": "punctuation", "alternatives": [{"confidence": "0.0", "content": "."}]}
    )
    aws = {"jobName": "x", "results": {"transcripts": [{"transcript": ""}], "items": items, "speaker_labels": {
        "speakers": 2, "segments": [{"start_time": str(s), "end_time": str(e),
                                     "speaker_label": f"spk_{int(w == 'B')}", "items": []}
                                    for w, s, e, t in TURNS]}}}  # fmt: skip
    speechmatics = {"format": "2.9", "results": [
        {"type": "word", "start_time": a, "end_time": b,
         "alternatives": [{"content": x, "confidence": 1.0, "speaker": f"S{1 + int(w == 'B')}"}]}
        for w, s, e, t in TURNS for a, b, x in words((w, s, e, t))]}  # fmt: skip
    google = {"results": [{"alternatives": [{"transcript": "hello"}]}, {"alternatives": [{"words": [
        {"startTime": f"{a}s", "endTime": f"{b}s", "word": x, "speakerTag": 1 + int(w == "B")}
        for w, s, e, t in TURNS for a, b, x in words((w, s, e, t))]}]}]}  # fmt: skip

    def clock(t: float, comma: bool) -> str:
        text = f"00:00:{int(t):02d}.{round((t % 1) * 1000):03d}"
        return text.replace(".", ",") if comma else text

    srt = "".join(f"{k}\n{clock(s, True)} --> {clock(e, True)}\nSpeaker {w}: {t}\n\n"
                  for k, (w, s, e, t) in enumerate(TURNS, start=1))  # fmt: skip
    vtt = "WEBVTT\n\n" + "".join(f"{clock(s, False)} --> {clock(e, False)}\n<v Speaker {w}>{t}</v>\n\n"
                                 for w, s, e, t in TURNS)  # fmt: skip
    return {
        "vibevoice": ("u.json", json.dumps(vibevoice)), "whisperx": ("u.json", json.dumps(whisperx)),
        "assemblyai": ("u.json", json.dumps(assemblyai)), "deepgram": ("u.json", json.dumps(deepgram)),
        "aws-transcribe": ("u.json", json.dumps(aws)), "speechmatics": ("u.json", json.dumps(speechmatics)),
        "google-stt": ("u.json", json.dumps(google)), "srt": ("u.srt", srt), "webvtt": ("u.vtt", vtt),
    }  # fmt: skip


@pytest.mark.parametrize("fmt", list(fixtures()))
def test_each_output_is_detected_and_read_as_its_three_turns(tmp_path: Path, fmt: str):
    name, text = fixtures()[fmt]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    assert detect_format(text, path) == fmt
    segments = read_segments(path)
    assert [(s.start_time, s.end_time) for s in segments] == [(t[1], t[2]) for t in TURNS]
    assert [s.words.rstrip(".") for s in segments] == [t[3] for t in TURNS]
    speakers = [s.speaker for s in segments]
    assert speakers[0] == speakers[2] != speakers[1]
    assert all(s.session_id == "u" for s in segments)


@pytest.mark.parametrize("fmt", list(fixtures()))
def test_each_output_scores_as_the_reference_it_transcribes(tmp_path: Path, fmt: str):
    name, text = fixtures()[fmt]
    (tmp_path / name).write_text(text, encoding="utf-8")
    reference = tmp_path / "ref.stm"
    reference.write_text("".join(f"u 1 {w} {s} {e} {t}\n" for w, s, e, t in TURNS))
    scores = score_pair(read_segments(reference), read_segments(tmp_path / name))
    assert scores["cpwer"]["error_rate"] == 0.0 and scores["tcpwer"]["error_rate"] == 0.0
    assert scores["der"]["error_rate"] == 0.0


def test_a_cue_without_a_speaker_or_a_damaged_service_output_is_named(tmp_path: Path):
    (tmp_path / "u.srt").write_text("1\n00:00:01,000 --> 00:00:02,000\nno speaker here\n")
    with pytest.raises(InputError, match=r"u.srt:line 3: cue 'no speaker here' names no speaker"):
        read_segments(tmp_path / "u.srt")
    (tmp_path / "v.json").write_text(
        json.dumps([{"Start time": 0, "Speaker ID": 1, "Content": "x"}])
    )
    with pytest.raises(
        InputError,
        match=r"not a vibevoice output: entry 1 has none of 'End time', 'End', 'end_time'",
    ):
        read_segments(tmp_path / "v.json", "vibevoice")


@pytest.mark.parametrize("fmt", list(fixtures()))
def test_a_copy_cut_off_mid_way_is_incomplete_and_evaluate_excludes_it(tmp_path: Path, fmt: str):
    """The paper's rule for every reader: an output that stops before its structure closes (a
    decoder at its token limit) is excluded as incomplete, never scored as what survived."""
    from msbench.records import Segment
    from msbench.scoring.evaluate import SystemSpec, evaluate_units
    from msbench.scoring.units import Unit

    name, text = fixtures()[fmt]
    (tmp_path / "sys").mkdir()
    (tmp_path / "sys" / name).write_text(text[: int(len(text) * 0.6)], encoding="utf-8")
    with pytest.raises(
        InputError, match="incomplete: the output stops before its structure closes"
    ):
        read_segments(tmp_path / "sys" / name)
    reference = [Segment("c::u", s, e, w, t) for w, s, e, t in TURNS]
    (row,) = evaluate_units(
        SystemSpec("s", "s", tmp_path / "sys"), [Unit("u", "c::u", 0.0, 8.0)], {"c::u": reference},
        {"c::u": "English"}, {"collar": 0.25, "tcp_collar": 5.0, "tokenizer": "mixed-v1"},
    ).units  # fmt: skip
    assert row["status"] == "excluded" and row["reason"].startswith("incomplete: ")


def test_a_whisper_result_beside_a_diarization_rttm_is_the_papers_cascade(tmp_path: Path):
    """faster-whisper's words (no speakers) + a pyannote RTTM: each word goes to the turn it
    overlaps most; the three turns come back and score 0."""
    whisper = {"language": "en", "segments": [
        {"id": k, "start": s, "end": e, "text": " " + t,
         "words": [{"word": " " + x, "start": a, "end": b, "probability": 0.9} for a, b, x in words(turn)]}
        for k, turn in enumerate(TURNS) for w, s, e, t in [turn]]}  # fmt: skip
    (tmp_path / "u.json").write_text(json.dumps(whisper))
    (tmp_path / "u.rttm").write_text("".join(
        f"SPEAKER u 1 {s - 0.25} {e - s + 0.1} <NA> <NA> spk{int(w == 'B')} <NA> <NA>\n" for w, s, e, t in TURNS
    ))  # fmt: skip
    segments = read_segments(tmp_path / "u.json")
    assert [(s.speaker, s.start_time, s.end_time, s.words) for s in segments] == [
        (f"spk{int(w == 'B')}", s, e, t) for w, s, e, t in TURNS
    ]
    reference = tmp_path / "ref.stm"
    reference.write_text("".join(f"u 1 {w} {s} {e} {t}\n" for w, s, e, t in TURNS))
    assert score_pair(read_segments(reference), segments)["cpwer"]["error_rate"] == 0.0


@pytest.mark.parametrize("fmt", list(fixtures()))
def test_converted_to_seglst_meeteval_gives_msbench_scores_cpwer(tmp_path: Path, fmt: str):
    """Against a reference that differs (a word changed, one dropped, a turn's speaker
    swapped): meeteval's cpWER of msbench's SegLST conversion equals `msbench score` on the
    raw file (both sides normalised with the tokenizer, as msbench scores them)."""
    import meeteval

    from msbench.scoring.tokenizer import tokenize

    name, text = fixtures()[fmt]
    (tmp_path / name).write_text(text, encoding="utf-8")
    changed = [("A", 0.5, 2.25, "hello their friend"), ("A", 2.5, 4.0, "hi are you"), TURNS[2]]
    reference = tmp_path / "ref.stm"
    reference.write_text("".join(f"u 1 {w} {s} {e} {t}\n" for w, s, e, t in changed))
    hypothesis = read_segments(tmp_path / name)
    ours = score_pair(read_segments(reference), hypothesis)["cpwer"]

    def normalised(segments: list) -> meeteval.io.SegLST:
        return meeteval.io.SegLST([
            {**s.to_seglst(), "words": " ".join(tokenize(s.words, "mixed-v1"))} for s in segments
        ])  # fmt: skip

    theirs = meeteval.wer.cpwer(normalised(read_segments(reference)), normalised(hypothesis))["u"]
    assert (ours["errors"], ours["length"]) == (theirs.errors, theirs.length) and theirs.errors > 0
