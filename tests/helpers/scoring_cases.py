"""Seeded scoring cases with what real files have, and writers for every format msbench reads.

A case holds a reference and a hypothesis (one or more sessions) and maybe a
UEM. The generator draws, per seed: one to ten speakers per side, names with
accents, CJK and spaces; times on a 10 ms grid (so a frame count is exact);
equal start times; zero-length segments with words; a speaker's own
overlapping segments; segments with an empty transcript; mixed Chinese and
English words; sessions present on one side only (or one session a side
under different ids); no UEM, one span or several per session. Hypotheses
are perturbed copies of the reference (speakers renamed and swapped, words
substituted, deleted and inserted, times shifted) or independent draws.

Writers produce STM, SegLST, RTTM, CTM (with a speaker column) and TextGrid
text for a case; ``*_fits`` say where a format can hold the case exactly.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from msbench.records import Segment
from tests.helpers.textgrids import long_textgrid

SPEAKER_NAMES = (
    "A", "Bob", "Zoë", "说话人1", "spk 2", "O'Neil", "Ünal", "S-3", "田中 太郎", "x9",
    "MÉO069", "Speaker 11",
)  # fmt: skip
WORDS = (
    "hello", "world", "yes", "no", "我们", "今天", "好", "the", "meeting", "对", "kpi", "ok",
    "café", "naïve", "会议", "plan", "it's", "A1",
)  # fmt: skip
SESSION_NAMES = ("rec1", "会议2", "EN2002a", "S02")
UEM_KINDS = ("none", "one", "several")


@dataclass
class Case:
    seed: int
    reference: list[Segment]
    hypothesis: list[Segment]
    uem: dict[str, tuple[tuple[float, float], ...]] | None = None
    kinds: set[str] = field(default_factory=set)  # what the case exercises

    @property
    def sessions(self) -> list[str]:
        names = {s.session_id for s in self.reference} | {s.session_id for s in self.hypothesis}
        return sorted(names)


def _time(rng: random.Random, low: float, high: float) -> float:
    return round(rng.randint(round(low * 100), round(high * 100)) / 100, 2)


def _words(rng: random.Random) -> str:
    if rng.random() < 0.1:
        return ""
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8)))


def _side(
    rng: random.Random, session: str, speakers: list[str], kinds: set[str], horizon: float
) -> list[Segment]:
    segments: list[Segment] = []
    starts: list[float] = []
    for speaker in speakers:
        for _ in range(rng.randint(1, 6)):
            if starts and rng.random() < 0.2:
                start = rng.choice(starts)
                kinds.add("equal_starts")
            else:
                start = _time(rng, 0, horizon - 2)
            length = 0.0 if rng.random() < 0.08 else _time(rng, 0.1, 5)
            if length == 0:
                kinds.add("zero_length")
            starts.append(start)
            segments.append(Segment(session, start, round(start + length, 2), speaker, _words(rng)))
    rng.shuffle(segments)  # file order is not time order
    return segments


def _perturb(rng: random.Random, reference: list[Segment], kinds: set[str]) -> list[Segment]:
    """A system's output: renamed speakers, some swapped, words and times disturbed."""
    names = sorted({s.speaker for s in reference})
    rename = {n: f"h{k}" if rng.random() < 0.7 else n for k, n in enumerate(names)}
    out = []
    for segment in reference:
        if rng.random() < 0.1:
            continue  # a missed segment
        speaker = rename[segment.speaker]
        if rng.random() < 0.15:
            speaker = rename[rng.choice(names)]
        words = segment.words.split() if segment.words else []
        words = [rng.choice(WORDS) if rng.random() < 0.15 else w for w in words]
        words = [w for w in words if rng.random() > 0.1]
        if rng.random() < 0.2:
            words.insert(rng.randint(0, len(words)), rng.choice(WORDS))
        shift = _time(rng, -0.5, 0.5) if rng.random() < 0.5 else 0.0
        start = max(0.0, round(segment.start_time + shift, 2))
        end = max(start, round(segment.end_time + shift, 2))
        out.append(Segment(segment.session_id, start, end, speaker, " ".join(words)))
    if rng.random() < 0.3 and reference:
        end = max(s.end_time for s in reference)
        extra = _side(rng, reference[0].session_id, ["fa"], kinds, end + 2)
        out += extra[:2]  # false alarms of a speaker the reference lacks
    return out


def _uem(rng: random.Random, kind: str, horizon: float) -> tuple[tuple[float, float], ...] | None:
    if kind == "none":
        return None
    if kind == "one":
        start = _time(rng, 0, 3)
        return ((start, _time(rng, start + 5, horizon + 6)),)
    cuts = sorted(rng.sample(range(0, round(horizon * 100) + 600), 2 * rng.randint(2, 3)))
    return tuple((a / 100, b / 100) for a, b in zip(cuts[::2], cuts[1::2], strict=True) if b > a)


def make_case(seed: int) -> Case:
    """The case of one seed (deterministic)."""
    rng = random.Random(seed)
    kinds: set[str] = set()
    layout = rng.choice(("one", "one", "both", "ref_only", "hyp_only", "renamed"))
    sessions = rng.sample(SESSION_NAMES, 2)
    reference: list[Segment] = []
    hypothesis: list[Segment] = []
    horizon = 30.0
    for k, session in enumerate(sessions[: 1 if layout in ("one", "renamed") else 2]):
        speakers = rng.sample(SPEAKER_NAMES, rng.randint(1, 10))
        horizon = 20.0 + 10.0 * len(speakers)  # about as dense as a meeting, whatever the size
        ref = _side(rng, session, speakers, kinds, horizon)
        if rng.random() < 0.75:
            hyp = _perturb(rng, ref, kinds)
        else:
            others = rng.sample(SPEAKER_NAMES, rng.randint(1, 10))
            hyp = _side(rng, session, others, kinds, horizon)
        if layout == "ref_only" and k == 1:
            hyp = []
            kinds.add("session_one_side")
        if layout == "hyp_only" and k == 1:
            ref = []
            kinds.add("session_one_side")
        if layout == "renamed":
            hyp = [Segment(f"{session}_h", *_fields(s)) for s in hyp]
            kinds.add("sessions_renamed")
        reference += ref
        hypothesis += hyp
    uem_kind = rng.choice(UEM_KINDS)
    uem = None
    if uem_kind != "none" and layout != "renamed":
        uem = {s: spans for s in sessions if (spans := _uem(rng, uem_kind, horizon))}
        kinds.add(f"uem_{uem_kind}")
    if any(self_overlapping(reference, s) for s in sessions):
        kinds.add("self_overlap")
    return Case(seed, reference, hypothesis, uem, kinds)


def _fields(segment: Segment) -> tuple[float, float, str, str | None]:
    return (segment.start_time, segment.end_time, segment.speaker, segment.words)


def self_overlapping(segments: list[Segment], session: str | None = None) -> bool:
    """Some speaker's segments overlap, or two of one speaker start together."""
    by_speaker: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for s in segments:
        if session is None or s.session_id == session:
            by_speaker[s.speaker].append((s.start_time, s.end_time))
    for spans in by_speaker.values():
        spans.sort()
        for (a0, a1), (b0, b1) in zip(spans, spans[1:], strict=False):
            if b0 < a1 or (b0 == a0 and b1 > b0 and a1 > a0):
                return True
    return False


# --- writers --------------------------------------------------------------------------------


def plain(name: str) -> str:
    """A speaker name whitespace-separated formats can hold (injective on SPEAKER_NAMES)."""
    return name.replace(" ", "_")


def _t(seconds: float) -> str:
    return f"{seconds:.2f}"


def _duration(segment: Segment) -> str:
    return str(Decimal(_t(segment.end_time)) - Decimal(_t(segment.start_time)))


def stm(segments: list[Segment]) -> str:
    return "".join(
        f"{s.session_id} 1 {plain(s.speaker)} {_t(s.start_time)} {_t(s.end_time)} {s.words}\n"
        for s in segments
    )


def seglst(segments: list[Segment]) -> str:
    rows = [
        {
            "session_id": s.session_id,
            "speaker": s.speaker,
            "start_time": s.start_time,
            "end_time": s.end_time,
            "words": s.words,
        }
        for s in segments
    ]
    return json.dumps(rows, ensure_ascii=False, indent=1)


def rttm(segments: list[Segment]) -> str:
    return "".join(
        f"SPEAKER {s.session_id} 1 {_t(s.start_time)} {_duration(s)} <NA> <NA> "
        f"{plain(s.speaker)} <NA> <NA>\n"
        for s in segments
    )


def word_times(segment: Segment) -> list[tuple[str, float, float]]:
    """Each word's interval, split by character count as meeteval's ``character_based`` does."""
    words = (segment.words or "").split()
    total = sum(len(w) for w in words)
    length = segment.end_time - segment.start_time
    out, done = [], 0
    for word in words:
        start = segment.start_time + length * done / total
        done += len(word)
        out.append((word, start, segment.start_time + length * done / total))
    return out


def ctm(segments: list[Segment]) -> str:
    """One line per word, at the character-based times (exact: the end is start + duration)."""
    lines = []
    for s in segments:
        for word, start, end in word_times(s):
            duration = Decimal(repr(end)) - Decimal(repr(start))
            lines.append(f"{s.session_id} {plain(s.speaker)} {start!r} {duration} {word}\n")
    return "".join(lines)


def without_self_overlap(segments: list[Segment], textgrid: bool = False) -> list[Segment]:
    """The segments minus those overlapping (or starting with) an earlier one of their speaker.

    ``textgrid``: also minus what a TextGrid interval cannot hold (zero length, no text) and
    minus a speaker whose turns equal another's (the TextGrid reader takes such a tier for an
    aligner's finer level).
    """
    kept: list[Segment] = []
    reach: dict[str, tuple[float, float]] = {}
    for s in sorted(segments, key=lambda x: x.start_time):
        if textgrid and (s.end_time <= s.start_time or not (s.words or "").strip()):
            continue
        last = reach.get((s.session_id, s.speaker))  # type: ignore[call-overload]
        if last is not None and (s.start_time < last[1] or s.start_time == last[0]):
            continue
        reach[(s.session_id, s.speaker)] = (s.start_time, s.end_time)  # type: ignore[index]
        kept.append(s)
    if textgrid:
        seen: set[tuple[str, tuple[tuple[float, float], ...]]] = set()
        spans: dict[tuple[str, str], list[tuple[float, float]]] = defaultdict(list)
        for s in kept:
            spans[(s.session_id, s.speaker)].append((s.start_time, s.end_time))
        dropped = set()
        for (session, speaker), items in spans.items():
            key = (session, tuple(items))
            dropped |= {(session, speaker)} if key in seen else set()
            seen.add(key)
        kept = [s for s in kept if (s.session_id, s.speaker) not in dropped]
    order = {id(s): k for k, s in enumerate(segments)}
    return sorted(kept, key=lambda x: order[id(x)])  # the file's order


def ctm_fits(segments: list[Segment]) -> bool:
    """Word order by time equals segment order per speaker: no speaker overlaps itself."""
    return not self_overlapping(segments)


def textgrid_fits(segments: list[Segment]) -> bool:
    """Every segment is an interval with text; no speaker overlaps itself; no tier tiles another."""
    if not segments or self_overlapping(segments):
        return False
    if any(s.end_time <= s.start_time or not (s.words or "").strip() for s in segments):
        return False
    coverage: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for s in segments:
        coverage[s.speaker].append((s.start_time, s.end_time))
    spans = [tuple(sorted(v)) for v in coverage.values()]
    return len(set(spans)) == len(spans)


def textgrid(segments: list[Segment], end: float) -> str:
    """A long-format Praat TextGrid, one interval tier per speaker (in first-appearance order)."""
    by_speaker: dict[str, list[tuple[float, float, str]]] = defaultdict(list)
    for s in segments:
        by_speaker[s.speaker].append((s.start_time, s.end_time, s.words or ""))
    return long_textgrid(list(by_speaker.items()), end)


def uem(spans: dict[str, tuple[tuple[float, float], ...]]) -> str:
    return "".join(f"{s} 1 {_t(a)} {_t(b)}\n" for s, items in spans.items() for a, b in items)
