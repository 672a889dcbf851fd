"""The 14 AMI demo clips: features from the package against an independent computation.

The reference here shares no code with the package: it rasterises the RTTM
onto an exact 1 ms integer grid (AMI times have millisecond resolution) and
reads speech, overlap and speaker changes off the per-frame activity sets.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from msbench.features.feature_rows import interaction_row
from msbench.ingest.sheet import read_dataset_sheet
from msbench.ingest.source import ingest_source
from tests.helpers.paths import DEMO, REPO, SHARED_DATA, require_shared

MS = 1000


def parse_rttm(paths: list[Path]) -> dict[str, list[tuple[str, int, int]]]:
    sessions: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            f = line.split()
            start = round(float(f[3]) * MS)
            sessions[f[1]].append((f[7], start, start + round(float(f[4]) * MS)))
    return sessions


def grid_features(segments: list[tuple[str, int, int]]) -> dict[str, float | int | None]:
    speakers = sorted({s for s, _, _ in segments})
    activity = np.zeros((len(speakers), max(e for _, _, e in segments) + 1), dtype=bool)
    for speaker, start, end in segments:
        activity[speakers.index(speaker), start:end] = True
    count = activity.sum(axis=0)
    gaps: list[float] = []
    last_set: frozenset[int] = frozenset()
    silence = 0
    for frame in range(activity.shape[1]):
        active = frozenset(np.flatnonzero(activity[:, frame]).tolist())
        if not active:
            silence += 1
            continue
        # a change with no overlap: one speaker alone, (silence,) then another alone
        if len(last_set) == 1 and len(active) == 1 and active != last_set:
            gaps.append(silence / MS)
        last_set, silence = active, 0
    return {
        "num_speakers": len(speakers),
        "overlap_ratio_of_speech": (count >= 2).sum() / (count >= 1).sum(),
        "overlap_seconds": (count >= 2).sum() / 1000,
        "speaker_switch_q25": float(np.percentile(gaps, 25)) if gaps else None,
        "max_concurrent_speakers": int(count.max()),
    }


def test_ami_demo_features_match_independent_grid(shared_data: Path):
    ami = DEMO / "ami" / "annotations"
    reference = parse_rttm(sorted(ami.glob("*.rttm")))
    assert len(reference) == 14
    spec = next(
        s
        for s in read_dataset_sheet(REPO / "resources" / "demo" / "datasets.tsv")
        if s.name == "ami"
    )
    spec = type(spec)(
        **{
            **spec.__dict__,
            "annotations": str(ami / "*.rttm"),
            "audio": str(DEMO / "ami" / "audio" / "{session}.flac"),
        }
    )
    result = ingest_source(spec)
    assert result.rejections == []
    rows = {r.recording.session_id: interaction_row(r) for r in result.recordings}
    assert sorted(rows) == sorted(reference)
    for session, segments in reference.items():
        expected = grid_features(segments)
        row = rows[session]
        assert row["num_speakers"] == expected["num_speakers"], session
        assert row["max_concurrent_speakers"] == expected["max_concurrent_speakers"], session
        assert row["overlap_ratio_of_speech"] == pytest.approx(
            expected["overlap_ratio_of_speech"], abs=1e-9
        ), session
        # the release's definition: of the clip's duration (30 s, the UEM span)
        assert row["overlap_ratio"] == pytest.approx(expected["overlap_seconds"] / 30.0, abs=1e-9)
        if expected["speaker_switch_q25"] is None:
            assert row["speaker_switch_q25"] is None, session
        else:
            assert row["speaker_switch_q25"] == pytest.approx(
                expected["speaker_switch_q25"], abs=1e-9
            ), session
    # the real-world quirks survive: non-ASCII session, accented speaker label
    assert "trñ00" in rows
    trn00 = next(r for r in result.recordings if r.recording.session_id == "trñ00")
    assert "MÉO069" in {s.speaker for s in trn00.segments}
    assert require_shared(SHARED_DATA / "ami-30s" / "audio" / "trñ00.wav").exists()
