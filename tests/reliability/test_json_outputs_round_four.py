"""JSON system outputs held to the older readers' checks (issue 48, root 1): a null speaker is no
speaker (not the text "None"), AssemblyAI's integer milliseconds are never truncated from float
seconds, and Google's results without speaker tags keep every result's words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from msbench.errors import InputError
from msbench.io.read import read_segments
from msbench.scoring.checks import structural_problem


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "u.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_a_null_vibevoice_speaker_is_no_speaker_naming_the_entry(tmp_path: Path):
    entries = [{"Start time": 0.0, "End time": 1.0, "Speaker ID": 0, "Content": "hi"},
               {"Start time": 1.0, "End time": 2.0, "Speaker ID": None, "Content": "there"}]  # fmt: skip
    segments = read_segments(_write(tmp_path, entries), "vibevoice")
    assert [s.speaker for s in segments] == ["0", ""]
    assert (
        structural_problem(segments) == f"incomplete: {tmp_path / 'u.json'}:entry 2 has no speaker"
    )


def test_assemblyai_float_seconds_are_refused_not_truncated(tmp_path: Path):
    data = {"utterances": [{"speaker": "A", "start": 1.5, "end": 3.25, "text": "hello"}]}
    with pytest.raises(InputError, match=r"utterance 1 start: 1.5 is not integer milliseconds"):
        read_segments(_write(tmp_path, data), "assemblyai")
    data = {"utterances": [{"speaker": "A", "start": 1500, "end": 3250, "text": "hello"}]}
    (segment,) = read_segments(_write(tmp_path, data), "assemblyai")
    assert (segment.start_time, segment.end_time) == (1.5, 3.25)


def test_google_results_without_speaker_tags_keep_every_result(tmp_path: Path):
    results = [
        {"alternatives": [{"words": [{"startOffset": f"{k}.0s", "endOffset": f"{k}.5s", "word": f"w{k}"}]}]}
        for k in range(9)
    ]  # fmt: skip
    segments = read_segments(_write(tmp_path, {"results": results}), "google-stt")
    assert " ".join(s.words for s in segments).split() == [f"w{k}" for k in range(9)]
    assert (
        structural_problem(segments) is not None
    )  # no speaker: excluded, named, not scored as one
