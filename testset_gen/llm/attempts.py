"""One loop for every LLM question writer: write, check by rule, review in batches, keep.

Both LLM paths of the generator, the seed-chunk evolutions (``llm_generator``) and the
knowledge-graph synthesizers (``synthesis``), spend their calls the same way, and this is
where that way lives:

1. each open slot picks what it is written from (``Writer.pick``; attempt *k* picks
   something else than attempt *k - 1*) and one writing call per slot runs, concurrently;
2. drafts that break a rule (``Writer.problems``: the answer inside the question, a
   reference to "the passage", a length off its target, another language than the
   contexts'...) are dropped before any review call is spent on them, and a slot whose
   draft was dropped or whose writing call failed writes again at once (its next attempt),
   so that the round's drafts are reviewed together;
3. the rest are reviewed ``batch`` at a time, one critic call per batch;
4. every accepted draft becomes a record, written to the journal at once, so a run killed
   mid-way resumes with every record it kept and redoes only the open slots.

A slot still open after ``max_attempts`` rounds is a shortfall: counted and reported by
type, never padded. Every rejection keeps its reasons, for ``ragmeter generate``'s report.
A failed writing call rejects that draft (its error as the reason). A failed critic call
(broken JSON, a refusal, a reply cut off) says nothing about its drafts, so they are not
rewritten: they wait for the next round's review, and only drafts still unreviewed after
the last round are rejected (``Writer.verdict`` with ``None``). Rewriting them cost a
writing call each, which under a model that fails one reply in five doubled the calls per
kept question.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Generic, Protocol, Sequence, TypeVar

from ragmeter.errors import JudgeError
from testset_gen.record import TestsetRecord


@dataclass(frozen=True)
class Slot:
    """The *position*-th question of its type (an evolution or a synthesizer); ``index`` is
    its place in the set."""

    index: int
    evolution: str
    position: int


@dataclass
class Rejection:
    """A draft (or a slot that could not be seeded: ``question`` empty) and why it was not kept."""

    evolution: str
    question: str
    reasons: list[str]


class Journal:
    """Kept records by slot, appended as they are accepted, read back on resume.

    Each line carries the run's identity (documents and settings); lines of another run in
    the same file are ignored, so a journal path reused for a different run cannot leak
    questions into it."""

    def __init__(self, path: Path | None, run: str = "") -> None:
        self.path = path
        self.run = run

    def load(self) -> dict[int, TestsetRecord]:
        if self.path is None or not self.path.exists():
            return {}
        out: dict[int, TestsetRecord] = {}
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
                if row.get("run") != self.run:
                    continue
                out[int(row["slot"])] = TestsetRecord.model_validate(row["record"])
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a crash: that slot is simply redone
        return out

    def add(self, slot: Slot, record: TestsetRecord) -> None:
        self._append({"slot": slot.index, "record": record.model_dump(mode="json")})

    def save(self, key: str, value: Any) -> None:
        """Keep a value of the run beside its records (profiles, personas: what a resumed run
        must not pay for twice); ``load`` skips these lines."""
        self._append({key: value})

    def saved(self, key: str) -> Any:
        """The last value saved under ``key`` by this run, or None."""
        if self.path is None or not self.path.exists():
            return None
        found = None
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if isinstance(row, dict) and row.get("run") == self.run and key in row:
                found = row[key]
        return found

    def _append(self, row: dict[str, Any]) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"run": self.run, **row}) + "\n")


Source = TypeVar("Source")
Draft = TypeVar("Draft")
Review = TypeVar("Review")


class Writer(Protocol, Generic[Source, Draft, Review]):
    """What one generator decides inside the loop; the loop decides the rest."""

    def pick(self, slot: Slot, attempt: int) -> Source | None:
        """What attempt ``attempt`` of ``slot`` is written from; ``None``: nothing can seed it."""

    def unpicked(self, slot: Slot) -> str | None:
        """The rejection reason for a slot nothing can seed (recorded once), or ``None`` to
        leave it to the shortfall alone."""

    async def write(self, slot: Slot, source: Source) -> Draft:
        """One writing call; raises ``JudgeError`` when it fails."""

    def question(self, draft: Draft) -> str:
        """The draft's question, for rejections."""

    def problems(self, slot: Slot, source: Source, draft: Draft) -> list[str]:
        """Rule checks before review; an empty list passes."""

    async def review(self, batch: Sequence[tuple[Slot, Source, Draft]]) -> Sequence[Review | None]:
        """One critic call for the batch, a review per draft in order (``None`` where the
        critic skipped one); raises ``JudgeError`` when it fails."""

    def verdict(self, slot: Slot, source: Source, draft: Draft, review: Review | None) -> list[str]:
        """Why the reviewed draft is not kept (``review`` None: not reviewed); empty: keep it."""

    def record(self, slot: Slot, source: Source, draft: Draft, review: Review) -> TestsetRecord:
        """The kept draft as a test-set record."""


@dataclass
class Attempted:
    """What the loop kept, by slot index, what it rejected, and the slots left open by type."""

    kept: dict[int, TestsetRecord]
    rejected: list[Rejection] = field(default_factory=list)
    shortfall: dict[str, int] = field(default_factory=dict)

    def records(self) -> list[TestsetRecord]:
        return [self.kept[i] for i in sorted(self.kept)]


async def attempt_slots(
    writer: Writer[Source, Draft, Review],
    slots: Sequence[Slot],
    journal: Journal,
    *,
    batch: int,
    max_attempts: int,
    concurrency: int = 8,
    on_record: Callable[[int], None] | None = None,
) -> Attempted:
    """Fill ``slots`` with ``writer`` (see the module docstring), resuming from ``journal``."""
    kept = {i: r for i, r in journal.load().items() if i < len(slots)}
    if on_record and kept:
        on_record(len(kept))
    out = Attempted(kept)
    gate = asyncio.Semaphore(concurrency)

    async def write(slot: Slot, source: Source) -> tuple[Draft | None, str]:
        async with gate:
            try:
                return await writer.write(slot, source), ""
            except JudgeError as exc:
                return None, f"{type(exc).__name__}: {exc}"

    async def review(drafts: list[tuple[Slot, Source, Draft]]) -> Sequence[Review | None] | None:
        async with gate:
            try:
                return await writer.review(drafts)
            except JudgeError:
                return None  # the call failed: the drafts wait for another review

    tries: dict[int, int] = {}  # attempts spent per slot index

    async def draft_for(slot: Slot) -> tuple[list[Rejection], tuple[Slot, Source, Draft] | None]:
        """Write for ``slot`` until a draft passes the rule check or its attempts run out.

        A draft lost to a failed call or a rule is written again at once, not in the next
        round: the round's drafts then reach the critic together, in full batches, instead
        of a critic call per round for the few that were rewritten."""
        lost: list[Rejection] = []
        while (attempt := tries.get(slot.index, 0)) < max_attempts:
            tries[slot.index] = attempt + 1
            source = writer.pick(slot, attempt)
            if source is None:  # nothing can seed this slot, on any attempt
                tries[slot.index] = max_attempts
                if attempt == 0 and (reason := writer.unpicked(slot)):
                    lost.append(Rejection(slot.evolution, "", [reason]))
                break
            written, error = await write(slot, source)
            if written is None:  # the writing call failed: its error is the reason
                lost.append(Rejection(slot.evolution, "", [error]))
                continue
            problems = writer.problems(slot, source, written)
            if problems:
                lost.append(Rejection(slot.evolution, writer.question(written), problems))
                continue
            return lost, (slot, source, written)
        return lost, None

    pending = [s for s in slots if s.index not in kept]
    waiting: list[tuple[Slot, Source, Draft]] = []  # drafts whose critic call failed
    for attempt in range(max_attempts):
        if not pending:
            break
        carried = {slot.index for slot, _, _ in waiting}
        written = await asyncio.gather(*(draft_for(slot) for slot in pending if slot.index not in carried))
        drafts, waiting = waiting, []
        for lost, made in written:  # in slot order, whatever order the calls finished in
            out.rejected += lost
            if made is not None:
                drafts.append(made)
        batches = [drafts[i:i + batch] for i in range(0, len(drafts), batch)]
        reviewed = await asyncio.gather(*(review(b) for b in batches))
        last = attempt == max_attempts - 1
        for drafted, reviews in zip(batches, reviewed):
            if reviews is None and not last:
                waiting += drafted
                continue
            for (slot, source, draft), r in zip(drafted, reviews or [None] * len(drafted)):
                problems = writer.verdict(slot, source, draft, r)
                if r is None or problems:
                    out.rejected.append(Rejection(slot.evolution, writer.question(draft),
                                                  problems or ["not reviewed"]))
                    continue
                record = writer.record(slot, source, draft, r)
                kept[slot.index] = record
                journal.add(slot, record)
                if on_record:
                    on_record(1)
        pending = [s for s in pending if s.index not in kept]
    for slot in pending:
        out.shortfall[slot.evolution] = out.shortfall.get(slot.evolution, 0) + 1
    return out
