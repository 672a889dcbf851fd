"""VibeVoice-ASR (microsoft/VibeVoice; MS-Bench's Table 1), in each form it really writes:

* the model's own JSON, ``[{"Start": 0, "End": 15.43, "Speaker": 0, "Content": "..."}]``
  (the Transformers documentation's raw output, ``docs/source/en/model_doc/vibevoice_asr.md``);
* the keys its prompt asks for, ``"Start time"``, ``"End time"``, ``"Speaker ID"``,
  ``"Content"`` (``vibevoice/processor/vibevoice_asr_processor.py``, ``show_keys``; the vLLM
  server's answers);
* the decoded text with its chat wrapper, ``<|im_start|>assistant\\n[...]<|im_end|>`` (and
  ``<|endoftext|>``), or the JSON inside a Markdown ```` ```json ```` fence;
* microsoft/VibeVoice's post-processed segments, ``start_time``, ``end_time``, ``speaker_id``,
  ``text`` (``post_process_transcription``'s key mapping, which accepts both spellings above).

Each is recognised by its content. A wrapper whose JSON does not close is ``incomplete`` (cut
off at the token limit), never scored as what survived.
"""

from __future__ import annotations

import re
from typing import Any

from msbench.io.json_outputs import label, parsed, read_parsed, seconds
from msbench.io.sample import NOT_JSON, Sample
from msbench.records import Segment

#: The spellings of each field, model's first (post_process_transcription's key mapping).
KEYS = {
    "start": ("Start time", "Start", "start_time"),
    "end": ("End time", "End", "end_time"),
    "speaker": ("Speaker ID", "Speaker", "speaker_id"),
    "words": ("Content", "text"),
}
LOOKS_FOR = "a list of {Start, End, Speaker, Content}, {Start time, End time, Speaker ID, Content} or {start_time, end_time, speaker_id, text}"
CHAT_TOKENS = re.compile(r"<\|(?:im_start|im_end|endoftext)\|>(?:assistant)?")
FENCE = re.compile(r"```(?:json)?\s*(?P<body>.*?)(?:```|$)", re.DOTALL)


def unwrap(text: str) -> str | None:
    """The JSON inside a decoded answer (chat tokens and a Markdown fence removed), or None when
    the text has neither.

    >>> unwrap('<|im_start|>assistant\\n[{"Start":0}]<|im_end|>\\n<|endoftext|>')
    '[{"Start":0}]'
    """
    if "<|im_start|>" not in text and "```" not in text:
        return None
    inner = CHAT_TOKENS.sub("", text).strip()
    if (fenced := FENCE.search(inner)) is not None:
        inner = fenced["body"].strip()
    return inner


def _field(entry: dict[str, Any], name: str, k: int) -> Any:
    for key in KEYS[name]:
        if key in entry:
            return entry[key]
    raise KeyError(f"entry {k} has none of {', '.join(map(repr, KEYS[name]))}")


def looks(data: Any) -> bool:
    """A list whose first entry has a speaker key of VibeVoice's (not SegLST's ``speaker``)."""
    first = data[0] if isinstance(data, list) and data else None
    return isinstance(first, dict) and any(key in first for key in KEYS["speaker"])


def detect(sample: Sample) -> bool:
    """VibeVoice's JSON, or a chat-wrapped or fenced answer."""
    if sample.data is not NOT_JSON:
        return looks(sample.data)
    return unwrap(sample.text) is not None


def read(data: Any, session: str, origin: str) -> list[Segment]:
    """Each entry one segment; a speaker of null is no speaker (named by the structural check)."""
    return [
        Segment(
            session,
            seconds(_field(e, "start", k), f"entry {k} start"),
            seconds(_field(e, "end", k), f"entry {k} end"),
            label(_field(e, "speaker", k)),
            str(_field(e, "words", k) or ""),
            f"{origin}:entry {k}",
        )
        for k, e in enumerate(data, start=1)
    ]


def read_vibevoice(sample: Sample) -> list[Segment]:
    """Any of the module's forms."""
    data = parsed(sample, unwrap(sample.text) if sample.data is NOT_JSON else None)
    if isinstance(data, dict):
        data = [data]  # post_process_transcription's rule: one object is a list of one
    return read_parsed(sample, "vibevoice", read, data)
