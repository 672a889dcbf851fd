"""Seeded simulated conversations and the probe items made from them (no audio needed).

A conversation gives lines from a pool to 2 to 5 speakers with seeded gaps and
overlaps (a line lasts 0.3 s a word + 0.4 s unless re-timed), plus wordless
speech (laughs) that only the activity holds.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Any

from msbench.probes.clips import lines_by_recording, recording_clips
from msbench.probes.generate import generate
from msbench.stages.options import resolve_settings

GAPS = (-1.0, -0.4, 0.0, 0.15, 0.4, 0.9, 1.6)
Conversation = tuple[list[dict[str, Any]], list[tuple[str, float, float]]]


def conversation(k: int, pool: Sequence[str]) -> Conversation:
    """Utterance rows and wordless activity ``(speaker, start, end)`` of conversation ``k``."""
    rng = random.Random(f"simulated:{k}")
    rid = f"sim::c{k:02d}"
    speakers = [f"{rid}::S{j}" for j in range(rng.randint(2, 5))]
    free_at = dict.fromkeys(speakers, 0.0)
    rows, laughs, now = [], [], 0.5
    for _ in range(rng.randint(16, 32)):
        words = pool[rng.randrange(len(pool))]
        speaker = rng.choice(speakers)
        start = round(max(now + rng.choice(GAPS), free_at[speaker] + 0.2, 0.0), 3)
        end = round(start + 0.3 * len(words.split()) + 0.4, 3)
        rows.append(
            {"recording_id": rid, "speaker": speaker, "start_time": start, "end_time": end,
             "words": words}
        )  # fmt: skip
        free_at[speaker], now = end, max(now, end)
        if rng.random() < 0.2:
            other = rng.choice([s for s in speakers if s != speaker])
            at = round(start + rng.uniform(0, end - start), 3)
            laughs.append((other, at, round(at + 0.5, 3)))
            free_at[other] = max(free_at[other], at + 0.5)
    return rows, laughs


def simulated_items(
    count: int,
    pool: Sequence[str],
    make: Callable[[int, Sequence[str]], Conversation] = conversation,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, list]]:
    """``(items, utterances, activity)`` of ``count`` conversations made by ``make`` (seed 0)."""
    settings = resolve_settings(None, json.dumps({"probes": {"seed": 0}}), None)["probes"]
    utterances, activity, clips = [], {}, []
    for k in range(count):
        rows, laughs = make(k, pool)
        rid = rows[0]["recording_id"]
        utterances += rows
        activity[rid] = [(a, b, s) for s, a, b in laughs]
        recording = {"recording_id": rid, "duration_seconds": max(r["end_time"] for r in rows)
                     + 1.0, "P": "P2", "O": "O2", "S": "S2", "T": "T2", "N": "N2"}  # fmt: skip
        clips += recording_clips(
            recording, lines_by_recording(rows)[rid], settings["max_clip_seconds"],
            settings["search_seconds"], laughs,
        )  # fmt: skip
    generated = generate(clips, dict.fromkeys(activity, "sim"), settings)
    return generated.rows, utterances, activity
