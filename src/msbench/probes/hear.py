"""HEAR's conventions, so that HEAR's own runner reads and scores a probe set unchanged.

HEAR (github.com/dwsmart32/HEAR, MIT) ships its items as dataset rows
(``question_id, clip_id, source_corpus, taxonomy, subtaxonomy, task_name,
overlap, question, options, answer_idx, audio_path``: ``hear.jsonl`` here), and
its ``hear/run_hear.py`` turns each into the row its ``inference.py`` reads and
its scorers score (``build_input``): ``id, clip_id, dataset, axis,
subdimension, category, options, ground_truth, instruction, audio_path``
(``hear_input.jsonl`` here, audio paths relative to the file, which
``inference.py`` resolves against the file's folder first). The two rules that
row depends on are HEAR's, as its code states them:

* :func:`category`: ``rebuild_category``: VCD is ``VCD_<task>``; a task
  ``none`` gives ``<sub>_<overlap>``; a task starting with its sub-dimension
  (``QR1``, ``TR1_first``) replaces the head, else ``<sub>_<task>``; the overlap
  label is appended when there is one (``QR1_nonoverlap``, ``TR1_first_overlap``);
* :func:`instruction`: ``build_instruction``: the head per family (CVA: the
  options are announced in the audio, so the text carries the question alone;
  VL and VCA: a reference voice follows; else the main audio only), the
  question, the lettered options, and the JSON answer format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: HEAR's dataset fields (``hear.jsonl``), in HEAR's order.
HEAR_FIELDS = (
    "question_id",
    "clip_id",
    "source_corpus",
    "taxonomy",
    "subtaxonomy",
    "task_name",
    "overlap",
    "question",
    "options",
    "answer_idx",
    "audio_path",
)
#: The runner's input fields (``hear_input.jsonl``), as ``build_input`` writes them.
RUNNER_FIELDS = (
    "id",
    "clip_id",
    "dataset",
    "axis",
    "subdimension",
    "category",
    "options",
    "ground_truth",
    "instruction",
    "audio_path",
)

CVA_HEAD = (
    "Listen to the main audio, followed by the voice options audio where each "
    "option (A through E) is announced before its voice sample, and answer the "
    "following multiple-choice question."
)
REFERENCE_HEAD = (
    "Listen to the main audio, followed by a reference voice of the target "
    "speaker, and answer the following multiple-choice question."
)
PLAIN_HEAD = "Listen to the main audio and answer the following multiple-choice question."
ANSWER_FORMAT = '\nRespond in JSON format, e.g. {"Answer": "A"}'


def category(row: Mapping[str, Any]) -> str:
    """HEAR's leaf label of a dataset row.

    >>> category({"subtaxonomy": "QR", "task_name": "QR1", "overlap": "nonoverlap"})
    'QR1_nonoverlap'
    >>> category({"subtaxonomy": "TR", "task_name": "TR1_first", "overlap": "overlap"})
    'TR1_first_overlap'
    >>> category({"subtaxonomy": "VCD", "task_name": "change", "overlap": "overlap"})
    'VCD_change'
    >>> category({"subtaxonomy": "VC", "task_name": "none", "overlap": ""})
    'VC'
    """
    sub, task, overlap = row["subtaxonomy"], row["task_name"], row["overlap"]
    if sub == "VCD":
        return f"VCD_{task}"
    if task == "none":
        return f"{sub}_{overlap}" if overlap else sub
    head = task if task.startswith(sub) else f"{sub}_{task}"
    return f"{head}_{overlap}" if overlap else head


def instruction(row: Mapping[str, Any]) -> str:
    """HEAR's prompt text of a dataset row.

    >>> print(instruction({"subtaxonomy": "VC", "question": "How many?", "options": ["1", "2"]}))
    Listen to the main audio and answer the following multiple-choice question.
    <BLANKLINE>
    How many?
    <BLANKLINE>
    Options:
    (A) 1
    (B) 2
    <BLANKLINE>
    Respond in JSON format, e.g. {"Answer": "A"}
    """
    from msbench.probes.families import FAMILIES

    prompt = FAMILIES[row["subtaxonomy"]].prompt
    if prompt == "voices":
        return CVA_HEAD + f"\n\n{row['question']}\n" + ANSWER_FORMAT
    head = REFERENCE_HEAD if prompt == "reference" else PLAIN_HEAD
    options = "\n".join(f"({chr(65 + k)}) {o}" for k, o in enumerate(row["options"]))
    return head + f"\n\n{row['question']}\n\nOptions:\n{options}\n" + ANSWER_FORMAT


def hear_row(item: Mapping[str, Any]) -> dict[str, Any]:
    """The item in HEAR's dataset fields (``hear.jsonl``)."""
    return {name: item[name] for name in HEAR_FIELDS}


def runner_row(item: Mapping[str, Any]) -> dict[str, Any]:
    """The row HEAR's ``build_input`` writes for the item (``hear_input.jsonl``)."""
    row = hear_row(item)
    return {
        "id": row["question_id"],
        "clip_id": row["clip_id"],
        "dataset": row["source_corpus"],
        "axis": row["taxonomy"],
        "subdimension": row["subtaxonomy"],
        "category": category(row),
        "options": row["options"],
        "ground_truth": chr(65 + row["answer_idx"]),
        "instruction": instruction(row),
        "audio_path": row["audio_path"],
    }
