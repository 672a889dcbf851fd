"""MagicData-RAMC transcriptions: one ``TXT/<session>.txt`` per conversation (OpenSLR 123).

The corpus (``MDT2021S003/``: ``TXT/``, ``WAV/``, ``SPKINFO.txt``,
``UTTERANCEINFO.txt``) writes one line per utterance, tab-separated::

    [1.319,6.691]<TAB>G00000140<TAB>女,普通话<TAB>爱数智慧语音采集二零一九年十一月六日

``[start,end]`` in seconds (read on their decimal text), the speaker id, the
speaker's gender and dialect, and the text. The session is the file name
(``CTS-CN-F2F-2019-11-04-387``), which is also the WAV's name. A line whose
text is only ``[*]`` marks a non-speech event, not words: it is skipped with a
note (the corpus' own ASR recipe, MagicHub-io/MagicData-RAMC
``asr/scripts/prepare_magicdata_180h.py``, drops these lines from the text).
Files are UTF-8 (with or without a BOM).
"""

from __future__ import annotations

import re
from pathlib import Path

from msbench.io.collector import SessionCollector, session_from_filename
from msbench.records import SessionAnnotation
from msbench.textio import read_text, split_lines
from msbench.timeline import parse_seconds

TIMES = re.compile(r"^\[\s*([^,\]]+)\s*,\s*([^\]]+?)\s*\]$")
NON_SPEECH = "[*]"


def read_magicdata(path: str | Path, encoding: str | None = None) -> list[SessionAnnotation]:
    """Every utterance of one RAMC ``.txt`` file (see the module docstring)."""
    session = session_from_filename(path)
    collector = SessionCollector(str(path))
    collector.touch(session)
    for number, line in enumerate(split_lines(read_text(path, encoding)), start=1):
        if not line.strip():
            continue
        fields = line.split("\t")
        where = f"line {number}"
        times = TIMES.match(fields[0].strip())
        if len(fields) < 4 or times is None:
            collector.problem(
                session,
                f"{path}:{where}: expected [start,end]<TAB>speaker<TAB>gender,dialect<TAB>text, "
                f"got {len(fields)} field(s) starting {fields[0][:20]!r}",
            )
            continue
        text = "\t".join(fields[3:]).strip()
        if text == NON_SPEECH:
            collector.note(session, f"{path}:{where}: non-speech mark [*], not an utterance")
            continue
        try:
            start, end = parse_seconds(times.group(1)), parse_seconds(times.group(2))
        except ValueError as error:
            collector.problem(session, f"{path}:{where}: {error}")
            continue
        collector.add(session, fields[1], start, end, where, text)
    return collector.sessions()
