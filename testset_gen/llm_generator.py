"""Questions written by an LLM judge: seeds from the graph, one writing call, a batched critic.

Cost per kept question: one writing call, plus 1/``critic.BATCH`` of a critic call, plus
the same again for each rejected attempt. The fixed cost is one summary call per document
(``summarise``), done once and cached like every other call.

Reproducible: the seed chunks of slot *i*, attempt *k* are a pure function of ``seed``,
*i* and *k* (not of what happened to other slots), and every call goes through the judge's
disk cache, so the same documents, seed and cache give the identical test set, and a run
resumed from its journal gives the same records as one that never stopped.
"""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from pydantic import BaseModel, Field

from ragmeter.errors import JudgeError
from ragmeter.judges.protocol import Judge
from ragmeter.prompts.fencing import DATA_NOTICE, fence
from testset_gen.critic import BATCH, Candidate, Review, Reviews, review_messages, reviews_by_number
from testset_gen.distribution import plan_counts
from testset_gen.document import Chunk, Document, content_id
from testset_gen.evolutions import WrittenQuestion, rule_problems, writing_messages
from testset_gen.record import EVOLUTION_TYPES, TestsetRecord

MAX_ATTEMPTS = 3
"""Seeds tried per question before it counts as a shortfall."""


@dataclass(frozen=True)
class Slot:
    """The *position*-th question of its evolution type; ``index`` is its place in the set."""

    index: int
    evolution: str
    position: int


@dataclass
class Rejection:
    evolution: str
    question: str
    reasons: list[str]


@dataclass
class LLMGeneration:
    records: list[TestsetRecord]
    shortfall: dict[str, int]
    rejected: list[Rejection] = field(default_factory=list)
    calls: int = 0


def plan_slots(size: int, distribution: Mapping[str, float]) -> list[Slot]:
    counts = plan_counts(size, distribution)
    slots: list[Slot] = []
    for evolution in EVOLUTION_TYPES:
        for position in range(counts.get(evolution, 0)):
            slots.append(Slot(len(slots), evolution, position))
    return slots


class SeedPicker:
    """Which chunks a slot's attempt starts from.

    Single-chunk evolutions draw from the chunks (shuffled once per type by ``seed``);
    multi_context draws from the graph's bridges (chunk pairs linked by a shared entity or
    keyphrase, or by similarity), shuffled the same way. Attempt *k* of the *p*-th slot of a
    type takes item ``(p + k * n) mod len`` of that type's list, ``n`` being the type's
    slot count: distinct slots start from distinct seeds while there are enough.
    """

    def __init__(self, chunks: Sequence[Chunk], bridges: Sequence[tuple[str, str]],
                 counts: Mapping[str, int], seed: int) -> None:
        by_id = {c.id: c for c in chunks}
        self.counts = dict(counts)
        self.items: dict[str, list[tuple[Chunk, ...]]] = {}
        for evolution in EVOLUTION_TYPES:
            if evolution == "multi_context":
                pool: list[tuple[Chunk, ...]] = [(by_id[a], by_id[b]) for a, b in bridges if a in by_id and b in by_id]
            else:
                pool = [(c,) for c in chunks]
            rng = random.Random(f"{seed}:{evolution}")
            rng.shuffle(pool)
            self.items[evolution] = pool

    def pick(self, slot: Slot, attempt: int) -> tuple[Chunk, ...] | None:
        pool = self.items[slot.evolution]
        if not pool:
            return None
        n = max(1, self.counts.get(slot.evolution, 1))
        return pool[(slot.position + attempt * n) % len(pool)]


class Summary(BaseModel):
    summary: str = Field(description="two or three sentences: what the document is about")


async def summarise(judge: Judge, documents: Sequence[Document], max_chars: int = 6000,
                    concurrency: int = 8) -> dict[str, str]:
    """One call per document: a short summary that orients the question writer (and is
    stored on the document's graph node). A failed call leaves that document without one."""
    gate = asyncio.Semaphore(concurrency)

    async def one(doc: Document) -> tuple[str, str | None]:
        prompt = [
            {"role": "system", "content": "You summarise documents. " + DATA_NOTICE},
            {"role": "user", "content": "Summarise in two or three sentences, in the document's language, what this document is about.\n\n"
             + fence("document", doc.text[:max_chars]) + '\n\nReply with {"summary": ...}.'},
        ]
        async with gate:
            try:
                return doc.id, (await judge.generate(prompt, Summary)).summary.strip()
            except JudgeError:
                return doc.id, None

    done = await asyncio.gather(*(one(d) for d in documents))
    return {k: v for k, v in done if v}


def _record(slot: Slot, chunks: tuple[Chunk, ...], written: WrittenQuestion, review: Review,
            judge_name: str) -> TestsetRecord:
    ids = [c.id for c in chunks]
    return TestsetRecord(
        id=content_id(written.question, written.ground_truth, *ids, prefix="q-"),
        question=written.question.strip(),
        ground_truth=written.ground_truth.strip(),
        reference_contexts=[c.text for c in chunks],
        evolution_type=slot.evolution,
        reference_context_ids=ids,
        sources=[c.source_metadata() for c in chunks],
        metadata={"generator": "llm", "judge": judge_name,
                  "seed_question": written.seed_question.strip(), "critic": review.reason},
    )


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
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"run": self.run, "slot": slot.index,
                                "record": record.model_dump(mode="json")}) + "\n")


async def generate_with_llm(
    judge: Judge,
    chunks: Sequence[Chunk],
    bridges: Sequence[tuple[str, str]],
    size: int,
    distribution: Mapping[str, float],
    *,
    seed: int = 0,
    summaries: Mapping[str, str] | None = None,
    max_attempts: int = MAX_ATTEMPTS,
    concurrency: int = 8,
    journal: Path | None = None,
    run: str = "",
    on_record: Callable[[int], None] | None = None,
) -> LLMGeneration:
    """Write ``size`` questions with ``judge``; see the module docstring."""
    slots = plan_slots(size, distribution)
    picker = SeedPicker(chunks, bridges, plan_counts(size, distribution), seed)
    log = Journal(journal, run)
    kept: dict[int, TestsetRecord] = {i: r for i, r in log.load().items() if i < len(slots)}
    if on_record and kept:
        on_record(len(kept))
    rejected: list[Rejection] = []
    calls_before = judge.usage.calls
    gate = asyncio.Semaphore(concurrency)
    summaries = summaries or {}

    async def write(slot: Slot, seeds: tuple[Chunk, ...]) -> WrittenQuestion | str:
        messages = writing_messages(slot.evolution, [c.text for c in seeds],
                                    summaries.get(seeds[0].document_id))
        async with gate:
            try:
                return await judge.generate(messages, WrittenQuestion)
            except JudgeError as exc:
                return f"{type(exc).__name__}: {exc}"

    async def review(batch: list[Candidate]) -> list[Review | None]:
        async with gate:
            try:
                return reviews_by_number(await judge.generate(review_messages(batch), Reviews), len(batch))
            except JudgeError:
                return [None] * len(batch)

    pending = [s for s in slots if s.index not in kept]
    for attempt in range(max_attempts):
        if not pending:
            break
        seeded = [(s, picker.pick(s, attempt)) for s in pending]
        runnable = [(s, c) for s, c in seeded if c is not None]
        written = await asyncio.gather(*(write(s, c) for s, c in runnable))
        candidates: list[tuple[Slot, tuple[Chunk, ...], WrittenQuestion]] = []
        for (slot, seeds), w in zip(runnable, written):
            if isinstance(w, str):
                rejected.append(Rejection(slot.evolution, "", [w]))
                continue
            problems = rule_problems(w.question, w.ground_truth)
            if problems:
                rejected.append(Rejection(slot.evolution, w.question, problems))
                continue
            candidates.append((slot, seeds, w))
        batches = [candidates[i : i + BATCH] for i in range(0, len(candidates), BATCH)]
        reviewed = await asyncio.gather(*(
            review([Candidate(w.question, w.ground_truth, tuple(c.text for c in seeds)) for _, seeds, w in b])
            for b in batches))
        for batch, reviews in zip(batches, reviewed):
            for (slot, seeds, w), r in zip(batch, reviews):
                if r is None or not r.accepted:
                    rejected.append(Rejection(slot.evolution, w.question,
                                              [r.reason if r else "not reviewed (critic call failed or skipped it)"]))
                    continue
                record = _record(slot, seeds, w, r, judge.name)
                kept[slot.index] = record
                log.add(slot, record)
                if on_record:
                    on_record(1)
        pending = [s for s in pending if s.index not in kept]

    shortfall: dict[str, int] = {}
    for s in pending:
        shortfall[s.evolution] = shortfall.get(s.evolution, 0) + 1
    return LLMGeneration(
        records=[kept[i] for i in sorted(kept)],
        shortfall=shortfall,
        rejected=rejected,
        calls=judge.usage.calls - calls_before,
    )


def describe_shortfall(shortfall: Mapping[str, int], requested: Mapping[str, int]) -> str:
    """``"multi_context 2 of 5"`` style text for warnings and the CLI."""
    return ", ".join(f"{k} {v} of {requested.get(k, 0)} missing" for k, v in shortfall.items())


def as_plain(rejections: Sequence[Rejection]) -> list[dict[str, Any]]:
    return [{"evolution": r.evolution, "question": r.question, "reasons": r.reasons} for r in rejections]
