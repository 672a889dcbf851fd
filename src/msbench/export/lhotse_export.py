"""The benchmark as lhotse manifests (what k2/icefall, NeMo and ESPnet recipes read).

* ``recordings.jsonl.gz``: each selected recording's audio file, as
  ``lhotse.Recording.from_file`` reads it (every channel; the supervisions
  name the channel msbench scored);
* ``supervisions.jsonl.gz``: one per reference utterance, in recording time:
  ``speaker`` (msbench's namespaced id, unique across recordings), ``text``,
  ``language``, and in ``custom`` the recording's condition labels and
  features and the utterance's overlap exposure ``r_ov``;
* ``activity.jsonl.gz``: the annotation's own speaker turns (what the five
  axes are computed from: an RTTM source's turns, not its transcript's
  utterances); read back by msbench's lhotse adapter they give the
  benchmark's speaker number, overlap ratio and turn interval exactly;
* ``cuts.jsonl.gz``: one ``MonoCut`` per inference unit over the unit's own
  16 kHz FLAC (``results/units/audio``), so the samples a cut loads are the
  unit's, bit for bit; its supervisions are the unit's reference moved into
  unit time (exact decimal subtraction), its ``custom`` the conditions.

Audio paths are absolute (``RecordingSet.with_path_prefix`` rebases them);
the gzip files carry no time stamp, so the same run exports the same bytes.
Each utterance's duration is ``end - start`` on their decimal texts, so lhotse's
``end`` (start + duration, a float sum) is the manifest's end to 1e-9 s.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msbench.export.bundle import Bundle, Utterance, write_jsonl_gz
from msbench.export.ids import export_id
from msbench.timeline import exact_difference


def _supervision(
    k: int,
    u: Utterance,
    channel: int,
    language: str,
    custom: dict[str, Any],
    offset: float = 0.0,
    recording_id: str | None = None,
) -> Any:
    from lhotse import SupervisionSegment

    start = exact_difference(u.start, offset) if offset else u.start
    recording = export_id(recording_id or u.recording_id)
    return SupervisionSegment(
        id=f"{recording}-{k:05d}",
        recording_id=recording,
        start=start,
        duration=exact_difference(u.end, u.start),
        channel=channel,
        text=u.words,
        language=language or None,
        speaker=export_id(u.speaker),
        custom={**custom, "r_ov": u.overlap_exposure},
    )


def export_lhotse(bundle: Bundle, out: Path) -> list[Path]:
    """Write the three manifests under ``out``; returns their paths."""
    from lhotse import Recording
    from lhotse.cut import MonoCut

    recordings, supervisions, activity, cuts = [], [], [], []
    for row in bundle.selected:
        rid, audio = row["recording_id"], bundle.audio[row["recording_id"]]
        path = Path(audio["audio_path"]).resolve()
        recordings.append(Recording.from_file(path, recording_id=export_id(rid)))
        channel, language = int(audio.get("channel") or 0), str(row.get("language") or "")
        custom = bundle.conditions(rid)
        for k, u in enumerate(bundle.utterances.get(rid, [])):
            supervisions.append(_supervision(k, u, channel, language, custom))
        for k, u in enumerate(bundle.activity.get(rid, [])):
            activity.append(_supervision(k, u, channel, language, custom))
    languages = {r["recording_id"]: str(r.get("language") or "") for r in bundle.selected}
    for unit in bundle.units:
        flac = (bundle.unit_audio / f"{unit.unit_id}.flac").resolve()
        recording = Recording.from_file(flac, recording_id=export_id(unit.unit_id))
        custom = {
            "recording_id": unit.recording_id,
            "start": unit.start,
            "end": unit.end,
            **bundle.conditions(unit.recording_id),
        }
        sups = [
            _supervision(k, u, 0, languages[unit.recording_id], custom, unit.start, unit.unit_id)
            for k, u in enumerate(bundle.unit_utterances(unit))
        ]
        cuts.append(
            MonoCut(
                export_id(unit.unit_id),
                0.0,
                recording.duration,
                0,
                sups,
                recording=recording,
                custom=custom,
            )
        )
    names = ("recordings", "supervisions", "activity", "cuts")
    paths = [out / f"{name}.jsonl.gz" for name in names]
    for path, items in zip(paths, (recordings, supervisions, activity, cuts), strict=True):
        write_jsonl_gz(path, (item.to_dict() for item in items))
    return paths
