"""Release sources beyond the seven: a corpus' own files, through its sheet row, give the release's ids.

The fixture is written by hand in MagicData-RAMC's documented format
(HaoranMiao/MagicData-RAMC README: ``[start,end]<TAB>speaker<TAB>gender,dialect<TAB>text``,
UTF-8, one ``TXT/<session>.txt`` and ``WAV/<session>.wav`` per conversation).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from msbench.ingest.sheet import read_dataset_sheet
from msbench.ingest.source import ingest_source
from tests.helpers.fixtures import write_tone
from tests.helpers.paths import REPO, SHARED_DATA, require_shared

RAMC_LINES = (
    "[0.000,1.210]\tG00000000\t0,0\t[*]\n"
    "[1.319,6.691]\tG00000140\t女,普通话\t爱数智慧语音采集二零一九年十一月六日\n"
    "[6.500,9.020]\tG00000141\t男,普通话\t对 最近那个新海诚的啊\n"
    "[9.106,12.713]\tG00000140\t女,普通话\t那个 你看过吗\n"
)


def rebuild_row(name: str, root: Path):
    """The sheet row of config/datasets.tsv, its corpora/ folder moved to ``root``."""
    spec = next(s for s in read_dataset_sheet(REPO / "config" / "datasets.tsv") if s.name == name)
    moved = {
        column: getattr(spec, column).replace("corpora/", f"{root}/")
        for column in ("annotations", "audio", "uem", "transcripts")
    }
    return replace(spec, **moved, sessions=str(REPO / spec.sessions) if spec.sessions else "")


def release_ids(source: str) -> set[str]:
    metadata = require_shared(SHARED_DATA / "msbench-release" / "metadata.jsonl")
    rows = [json.loads(line) for line in metadata.read_text().splitlines() if line.strip()]
    return {r["recording_id"] for r in rows if r["source_dataset"] == source}


def test_magicdata_ramc_row_reproduces_the_release_ids(tmp_path: Path):
    released = release_ids("MagicData-RAMC_test")
    assert len(released) == 6
    corpus = tmp_path / "MagicData-RAMC" / "MDT2021S003"
    sessions = sorted(r.split("::")[1] for r in released) + ["CTS-CN-F2F-2019-11-06-2"]  # train
    for session in sessions:
        (corpus / "TXT").mkdir(parents=True, exist_ok=True)
        (corpus / "TXT" / f"{session}.txt").write_text(RAMC_LINES, encoding="utf-8")
        write_tone(corpus / "WAV" / f"{session}.wav", 14.0)
    result = ingest_source(rebuild_row("MagicData-RAMC_test", tmp_path))
    assert {r.recording.recording_id for r in result.recordings} == released
    assert result.left_out == 1 and not result.rejections  # the train conversation is not listed
    one = result.recordings[0]
    assert [s.speaker for s in one.segments] == ["G00000140", "G00000141", "G00000140"]
    assert one.segments[0].words == "爱数智慧语音采集二零一九年十一月六日"
    assert (one.segments[1].start_time, one.segments[1].end_time) == (6.5, 9.02)
    assert any("non-speech mark [*]" in note and "line 1" in note for note in one.notes)


def test_the_ramc_split_list_holds_every_released_session():
    listed = rebuild_row("MagicData-RAMC_test", Path("/x")).kept_sessions() or set()
    assert len(listed) == 43
    assert {r.split("::")[1] for r in release_ids("MagicData-RAMC_test")} <= listed
