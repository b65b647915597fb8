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
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from pydantic import BaseModel, Field

from ragmeter.errors import JudgeError
from ragmeter.judges.protocol import Judge
from ragmeter.prompts.fencing import DATA_NOTICE, fence
from testset_gen.llm.attempts import Journal, Rejection, Slot, attempt_slots
from testset_gen.llm.critic import BATCH, Candidate, Review, Reviews, review_messages, reviews_by_number
from testset_gen.distribution import plan_counts
from testset_gen.documents.document import Chunk, Document, content_id
from testset_gen.llm.evolutions import WrittenQuestion, rule_problems, writing_messages
from testset_gen.llm.judge_faults import wrong_language
from testset_gen.record import EVOLUTION_TYPES, TestsetRecord

MAX_ATTEMPTS = 3
"""Seeds tried per question before it counts as a shortfall."""


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
    calls_before = judge.usage.calls
    writer = _EvolutionWriter(judge, SeedPicker(chunks, bridges, plan_counts(size, distribution), seed),
                              summaries or {})
    done = await attempt_slots(writer, plan_slots(size, distribution), Journal(journal, run), batch=BATCH,
                               max_attempts=max_attempts, concurrency=concurrency, on_record=on_record)
    return LLMGeneration(records=done.records(), shortfall=done.shortfall, rejected=done.rejected,
                         calls=judge.usage.calls - calls_before)


class _EvolutionWriter:
    """``attempts.Writer`` for the seed-chunk evolutions: seeds from ``SeedPicker``, one
    ``WrittenQuestion`` per call, reviewed by ``critic``."""

    def __init__(self, judge: Judge, picker: SeedPicker, summaries: Mapping[str, str]) -> None:
        self.judge = judge
        self.picker = picker
        self.summaries = summaries

    def pick(self, slot: Slot, attempt: int) -> tuple[Chunk, ...] | None:
        return self.picker.pick(slot, attempt)

    def unpicked(self, slot: Slot) -> str | None:
        return None  # no seed of this type: the shortfall says so

    async def write(self, slot: Slot, seeds: tuple[Chunk, ...]) -> WrittenQuestion:
        messages = writing_messages(slot.evolution, [c.text for c in seeds],
                                    self.summaries.get(seeds[0].document_id))
        return await self.judge.generate(messages, WrittenQuestion)

    def question(self, draft: WrittenQuestion) -> str:
        return draft.question

    def problems(self, slot: Slot, seeds: tuple[Chunk, ...], draft: WrittenQuestion) -> list[str]:
        language = wrong_language([draft.question, draft.ground_truth], [c.text for c in seeds])
        return rule_problems(draft.question, draft.ground_truth) + ([language] if language else [])

    async def review(self, batch: Sequence[tuple[Slot, tuple[Chunk, ...], WrittenQuestion]]) -> list[Review | None]:
        candidates = [Candidate(w.question, w.ground_truth, tuple(c.text for c in seeds)) for _, seeds, w in batch]
        return reviews_by_number(await self.judge.generate(review_messages(candidates), Reviews), len(batch))

    def verdict(self, slot: Slot, seeds: tuple[Chunk, ...], draft: WrittenQuestion,
                review: Review | None) -> list[str]:
        if review is None:
            return ["not reviewed (critic call failed or skipped it)"]
        return [] if review.accepted else [review.reason]

    def record(self, slot: Slot, seeds: tuple[Chunk, ...], draft: WrittenQuestion, review: Review) -> TestsetRecord:
        return _record(slot, seeds, draft, review, self.judge.name)


def describe_shortfall(shortfall: Mapping[str, int], requested: Mapping[str, int]) -> str:
    """``"multi_context 2 of 5"`` style text for warnings and the CLI."""
    return ", ".join(f"{k} {v} of {requested.get(k, 0)} missing" for k, v in shortfall.items())


def as_plain(rejections: Sequence[Rejection]) -> list[dict[str, Any]]:
    return [{"evolution": r.evolution, "question": r.question, "reasons": r.reasons} for r in rejections]
