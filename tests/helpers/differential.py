"""The differential suite's pieces: a case in every format, scored by msbench and by meeteval."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

from msbench.ingest.adapters import read_uem_spans
from msbench.io.read import read_segments
from msbench.records import Segment
from msbench.scoring.pipeline import score_pair
from tests.helpers import scoring_cases as cases

COUNTS = ("errors", "length", "substitutions", "insertions", "deletions")
WER_KEYS = ("cpwer", "tcpwer", "wer", "tcorcwer", "orcwer")
TIMING = {
    "collar": 5,  # an int: meeteval reads STM times as Decimal
    "ref_pseudo_word_timing": "character_based",
    "hyp_pseudo_word_timing": "character_based_points",
}


class Scored:
    """One case, its files in every format, and msbench's scores of each."""

    def __init__(self, seed: int, folder: Path) -> None:
        self.case = cases.make_case(seed)
        self.folder = folder
        ref, hyp = self.case.reference, self.case.hypothesis
        self.write("ref.stm", cases.stm(ref))
        self.write("hyp.stm", cases.stm(hyp))
        self.write("ref.json", cases.seglst(ref))
        self.write("hyp.json", cases.seglst(hyp))
        self.write("ref.rttm", cases.rttm(ref))
        self.write("hyp.rttm", cases.rttm(hyp))
        self.uem = None
        if self.case.uem:
            self.write("x.uem", cases.uem(self.case.uem))
            self.uem = read_uem_spans(str(folder / "x.uem")).strict()
        self.stm = self.score("ref.stm", "hyp.stm")

    def write(self, name: str, text: str) -> None:
        (self.folder / name).write_text(text, encoding="utf-8")

    def read(self, name: str) -> list[Segment]:
        return read_segments(self.folder / name) if (self.folder / name).stat().st_size else []

    def score(
        self,
        ref: str | list[Segment],
        hyp: str,
        tokenizer: str = "whitespace",
        uem: bool = True,
        orc: bool = True,
    ) -> Any:
        reference = self.read(ref) if isinstance(ref, str) else ref
        spans = self.uem if uem else None
        return score_pair(reference, self.read(hyp), spans, tokenizer=tokenizer, with_orc=orc)

    def ctm_pair(self) -> tuple[Any, Any]:
        """STM and CTM scores of the case without a speaker's own overlaps (CTM orders by time).

        Without the UEM: the WER family keeps a segment that meets the UEM whole, and a
        CTM's segments are single words, so a UEM edge inside a segment keeps all of
        its words from the STM and only some from the CTM (meeteval does the same).
        """
        ref = cases.without_self_overlap(self.case.reference)
        hyp = cases.without_self_overlap(self.case.hypothesis)
        for side, segments in (("ref", ref), ("hyp", hyp)):
            self.write(f"{side}_plain.stm", cases.stm(segments))
            self.write(f"{side}.ctm", cases.ctm(segments))
        return (
            self.score("ref_plain.stm", "hyp_plain.stm", uem=False, orc=False),
            self.score("ref.ctm", "hyp.ctm", uem=False, orc=False),
        )

    def textgrid_pair(self) -> tuple[Any, Any] | None:
        """STM and TextGrid scores of the reference a TextGrid can hold (one file per session)."""
        ref = cases.without_self_overlap(self.case.reference, textgrid=True)
        if not ref:
            return None
        # the STM in the TextGrid's order (tier by tier): equal start times keep file order
        tiers = list(dict.fromkeys((s.session_id, s.speaker) for s in ref))
        ref.sort(key=lambda s: (tiers.index((s.session_id, s.speaker)), s.start_time))
        self.write("ref_grid.stm", cases.stm(ref))
        by_session: dict[str, list[Segment]] = defaultdict(list)
        for segment in ref:
            by_session[segment.session_id].append(segment)
        grid = []
        for session, items in by_session.items():
            path = self.folder / f"{session}.TextGrid"
            path.write_text(cases.textgrid(items, max(s.end_time for s in items) + 1))
            grid += read_segments(path)
        return self.score("ref_grid.stm", "hyp.stm"), self.score(grid, "hyp.stm")


def failing(found: dict[int, str]) -> str:
    shown = "; ".join(f"seed {seed}: {why}" for seed, why in list(found.items())[:5])
    return f"{len(found)} case(s) differ (rebuild with make_case(seed)): {shown}"


def without_notes(out: Any) -> Any:
    return {k: v for k, v in out.items() if k not in ("notes", "sessions")}


def counts(entry: dict[str, Any] | None) -> tuple[int, ...] | None:
    return None if entry is None else tuple(entry[k] for k in COUNTS)


def meets(segment: dict[str, Any], spans: tuple[tuple[Any, Any], ...]) -> bool:
    """meeteval's UEM rule, written out for the spans it cannot take (several per session)."""
    return any(segment["start_time"] <= b and segment["end_time"] >= a for a, b in spans)


def meeteval_session(
    item: Scored, session: str
) -> tuple[Any, Any, Any]:  # (reference, hypothesis, uem) as meeteval loads them
    import meeteval
    from meeteval.io.uem import UEM, UEMLine

    def load(name: str) -> Any:
        path = item.folder / name
        if not path.stat().st_size:
            return meeteval.io.SegLST([])
        return meeteval.io.load(path).to_seglst().filter(lambda s: s["session_id"] == session)

    ref, hyp = load("ref.stm"), load("hyp.stm")
    if "sessions_renamed" in item.case.kinds:  # the only hypothesis session, paired by msbench
        hyp = meeteval.io.load(item.folder / "hyp.stm").to_seglst()
        hyp = hyp.map(lambda s: {**s, "session_id": session})
    spans = (item.case.uem or {}).get(session)
    if spans:  # meeteval reads STM times as Decimal: compare with the UEM's decimal text
        spans = tuple((Decimal(str(a)), Decimal(str(b))) for a, b in spans)
    if spans and len(spans) > 1:
        ref = ref.filter(lambda s: meets(s, spans))
        hyp = hyp.filter(lambda s: meets(s, spans))
        return ref, hyp, None
    if spans:
        return (
            ref,
            hyp,
            UEM(
                [UEMLine(filename=session, channel=1, begin_time=spans[0][0], end_time=spans[0][1])]
            ),
        )
    return ref, hyp, None


def words_of(seglst: Any) -> int:
    return sum(len(s["words"].split()) for s in seglst)


def expected_counts(item: Scored, session: str) -> Iterator[tuple[str, tuple[int, ...]]]:
    """meeteval's counts of one session for each WER metric msbench computed."""
    import meeteval

    ref, hyp, uem = meeteval_session(item, session)
    if uem is not None:
        ref, hyp = ref.filter_by_uem(uem), hyp.filter_by_uem(uem)
    entry = next(e for e in item.stm["sessions"] if e["session_id"] == session)
    if not words_of(hyp) or not words_of(ref):  # one side only: all deletions, or all insertions
        n_ref, n_hyp = words_of(ref), words_of(hyp)
        for key in WER_KEYS:
            if entry[key] is not None:
                yield key, (n_ref + n_hyp, n_ref, 0, n_hyp, n_ref)
        return
    one = {"reference_sort": "segment", "hypothesis_sort": "segment"}
    calls = {
        "cpwer": lambda r, h: meeteval.wer.cpwer(r, h),
        "tcpwer": lambda r, h: meeteval.wer.tcpwer(r, h, **TIMING),
        "wer": lambda r, h: meeteval.wer.cpwer(one_speaker(r), one_speaker(h), **one),
        "tcorcwer": lambda r, h: meeteval.wer.tcorcwer(r, h, **TIMING),
        # meeteval's ORC fails its own assertion on a hypothesis segment without words
        # (0.4.3 and main, 2025-10): given without them, as msbench gives them
        "orcwer": lambda r, h: meeteval.wer.orcwer(r, h.filter(lambda s: s["words"].strip())),
    }
    for key, call in calls.items():
        if entry[key] is not None:
            result = call(ref, hyp)[session]
            yield key, tuple(getattr(result, k) for k in COUNTS)


def one_speaker(seglst: Any) -> Any:
    return seglst.map(lambda s: {**s, "speaker": "all"})


def msbench_cli(folder: Path, ref: list[Segment], hyp: list[Segment]) -> dict[str, Any]:
    (folder / "ref.stm").write_text(cases.stm(ref), encoding="utf-8")
    (folder / "hyp.stm").write_text(cases.stm(hyp), encoding="utf-8")
    command = [
        sys.executable, "-m", "msbench.cli", "score", "--ref", str(folder / "ref.stm"),
        "--hyp", str(folder / "hyp.stm"), "--tokenizer", "whitespace",
    ]  # fmt: skip
    out = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    return {entry["session_id"]: entry for entry in out["sessions"]}


def meeteval_cli(
    folder: Path, metric: str, ref: list[Segment], hyp: list[Segment]
) -> dict[str, Any]:
    (folder / f"ref_{metric}.stm").write_text(cases.stm(ref), encoding="utf-8")
    (folder / f"hyp_{metric}.stm").write_text(cases.stm(hyp), encoding="utf-8")
    command = [
        str(Path(sys.executable).parent / "meeteval-wer"), metric,
        "-r", str(folder / f"ref_{metric}.stm"), "-h", str(folder / f"hyp_{metric}.stm"),
        "--per-reco-out", str(folder / f"{metric}.json"),
    ]  # fmt: skip
    if metric.startswith("tc"):
        command += ["--collar", "5", "--ref-pseudo-word-timing", "character_based",
                    "--hyp-pseudo-word-timing", "character_based_points"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads((folder / f"{metric}.json").read_text())


def segment_fields(segment: Segment) -> tuple[float, float, str, str | None]:
    return (segment.start_time, segment.end_time, segment.speaker, segment.words)
