"""The benchmark's references as meeteval reads them: one SegLST file and one UEM file.

``references.seglst.json`` holds every unit's reference, ``session_id`` the
unit id (what a system's output for that unit is named after), times in
recording time, speakers msbench's namespaced ids; ``units.uem`` gives each
unit's scored span (``<unit_id> 1 <start> <end>``). With them, meeteval's own
scorer gives the WER family msbench reports:
``meeteval-wer tcpwer -r references.seglst.json -h system.seglst.json --uem units.uem``.
"""

from __future__ import annotations

import json
from pathlib import Path

from msbench.export.bundle import Bundle
from msbench.textio import write_atomic


def export_seglst(bundle: Bundle, out: Path) -> list[Path]:
    """Write ``references.seglst.json`` and ``units.uem`` under ``out``."""
    segments, uem = [], []
    for unit in bundle.units:
        for u in bundle.unit_utterances(unit):
            segments.append({"session_id": unit.unit_id, "speaker": u.speaker,
                             "start_time": u.start, "end_time": u.end, "words": u.words})  # fmt: skip
        for start, end in unit.uem:
            uem.append(f"{unit.unit_id} 1 {start} {end}")
    paths = [out / "references.seglst.json", out / "units.uem"]
    write_atomic(paths[0], json.dumps(segments, ensure_ascii=False, indent=1) + "\n")
    write_atomic(paths[1], "".join(line + "\n" for line in uem))
    return paths
