"""The benchmark's references, and systems' outputs, as meeteval reads them.

``references.seglst.json`` and ``references.stm`` hold every unit's reference
(``session_id`` the unit id, which a system's output for that unit is named
after; times in recording time; speakers msbench's namespaced ids, with any
whitespace made ``_`` in STM); ``units.uem`` gives each unit's scored spans
(``<unit_id> 1 <start> <end>``). ``normalised/`` holds the same references and
each configured system's outputs converted to SegLST (a unit the system left
out or that msbench excluded has no segment), both sides normalised with the
run's tokenizer as msbench scores them, so meeteval's own command line gives
msbench's counts:
``meeteval-wer tcpwer -r normalised/references.seglst.json -h normalised/<system>.seglst.json --uem units.uem --collar 5``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from msbench.export.bundle import Bundle
from msbench.export.ids import export_id
from msbench.io.seglst import write as seglst_text
from msbench.io.stm import write as stm_text
from msbench.scoring.tokenizer import DEFAULT_TOKENIZER
from msbench.textio import write_atomic


def _normalised(segments: list[dict[str, Any]], tokenizer: str) -> list[dict[str, Any]]:
    from msbench.scoring.tokenizer import tokenize

    return [{**s, "words": " ".join(tokenize(s["words"], tokenizer))} for s in segments]


def system_segments(entry: Mapping[str, Any], bundle: Bundle) -> list[dict[str, Any]]:
    """A system's outputs for every unit, read as ``msbench evaluate`` reads them, as SegLST
    (recording time, ``session_id`` the unit id); units without a readable output are left out."""
    from msbench.errors import InputError
    from msbench.io.read import read_segments
    from msbench.scoring.evaluate import MissingOutput, SystemSpec, load_output

    spec = SystemSpec.from_config(entry)
    single = read_segments(spec.outputs, spec.format) if spec.outputs.is_file() else None
    found = []
    for unit in bundle.units:
        try:
            found += [
                {**s.to_seglst(), "session_id": export_id(unit.unit_id)}
                for s in load_output(spec, unit, single)
            ]
        except (MissingOutput, InputError):
            continue
    return found


def export_seglst(
    bundle: Bundle,
    out: Path,
    systems: Sequence[Mapping[str, Any]] = (),
    tokenizer: str = DEFAULT_TOKENIZER,
) -> list[Path]:
    """Write the references (SegLST, STM), the UEM, and ``normalised/`` (references, systems)."""
    segments, uem = [], []
    for unit in bundle.units:
        for u in bundle.unit_utterances(unit):
            segments.append(
                {
                    "session_id": export_id(unit.unit_id),
                    "speaker": export_id(u.speaker),
                    "start_time": u.start,
                    "end_time": u.end,
                    "words": u.words,
                }
            )
        uem += [f"{export_id(unit.unit_id)} 1 {start} {end}\n" for start, end in unit.uem]
    written = {
        out / "references.seglst.json": seglst_text(segments),
        out / "references.stm": stm_text(segments),
        out / "units.uem": "".join(uem),
        out / "normalised" / "references.seglst.json": seglst_text(
            _normalised(segments, tokenizer)
        ),
    }
    for entry in systems:
        converted = _normalised(system_segments(entry, bundle), tokenizer)
        written[out / "normalised" / f"{entry['id']}.seglst.json"] = seglst_text(converted)
    for path, text in written.items():
        write_atomic(path, text)
    return list(written)
