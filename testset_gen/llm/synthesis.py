"""The synthesizer path: an enriched knowledge graph, personas, styles -> records.

    graph ─► enrich (1 call / 6 chunks) ─► link chunks ─► personas (1 call) ─► per record:
    scenario + persona + style + length ─► write (1 call) ─► rule check ─► critic (1 call / 8)

Cost: a fixed part (the enrichment calls, one per ``enrichment.BATCH`` chunks of a
document, and one persona call unless the user gives personas), then per kept question one
writing call and an eighth of a critic call, plus the same again for each rejected attempt
(and one more call for each reply the judge had to re-ask because it did not parse).

Reproducible: which scenario, style and length a record gets, and which persona asks, are
pure functions of ``seed``, the record's slot and the attempt (not of what happened to other
slots), and every call goes through the judge's disk cache. Resumable: the chunk profiles
and the personas are journalled with the run's identity as soon as they exist, and every
kept record as it is accepted, so a rerun after an interruption sends no call for what was
already done, even with the cache off.
"""

from __future__ import annotations

import json
import random
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ragmeter.errors import JudgeError
from ragmeter.judges.protocol import FreeFormJudge, Judge
from testset_gen.distribution import parse_shares, plan_counts
from testset_gen.documents.document import Chunk, content_id
from testset_gen.graph.enrichment import ChunkProfile, enrich
from testset_gen.llm.evolutions import refers_to_source
from testset_gen.graph.knowledge_graph import KnowledgeGraph
from testset_gen.llm.judge_faults import wrong_language
from testset_gen.llm.attempts import Journal, Slot, attempt_slots
from testset_gen.llm.evolution_writer import LLMGeneration
from testset_gen.llm.personas import (
    DEFAULT_PERSONAS,
    GENERIC_PERSONA,
    Persona,
    derive_personas,
    match_persona,
    words,
)
from testset_gen.llm.query_style import assign, length_problem, parse_lengths, parse_styles
from testset_gen.record import EvolutionType, TestsetRecord
from testset_gen.graph.relationships import apply_profiles, link_chunks
from testset_gen.llm.scenarios import SYNTHESIZERS, Scenario, describe, scenarios
from testset_gen.llm.synthesis_critic import BATCH, Draft, SampleReview, SampleReviews, review_messages, reviews_in_order
from testset_gen.llm.synthesizers import WrittenSample, synthesis_messages

DEFAULT_SYNTHESIZERS: dict[str, float] = {"single_hop_specific": 0.5, "multi_hop_specific": 0.25,
                                          "multi_hop_abstract": 0.25}
EVOLUTION_OF: dict[str, EvolutionType] = {"single_hop_specific": "simple", "multi_hop_specific": "multi_context",
                "multi_hop_abstract": "multi_context"}
"""The record's ``evolution_type`` (the field every ragmeter reader knows): a multi-hop
record needs several contexts, which is what ``multi_context`` means; the synthesizer
itself is in the metadata."""

_NO_SCENARIO = {
    "single_hop_specific": "no scenario: no chunk has an LLM profile",
    "multi_hop_specific": "no scenario: no two chunks share an entity",
    "multi_hop_abstract": "no scenario: no two chunks share a theme",
}


class PersonaWarning(UserWarning):
    """The persona call failed; the run went on with one generic persona."""


class EnrichmentWarning(UserWarning):
    """Some chunks could not be profiled; they are not used as seeds."""


def parse_synthesizers(text: str | Mapping[str, float] | None) -> dict[str, float]:
    """``"single_hop_specific=0.5,multi_hop_specific=0.25,multi_hop_abstract=0.25"`` -> shares."""
    return parse_shares(text, SYNTHESIZERS, DEFAULT_SYNTHESIZERS, what="synthesizer")


@dataclass
class SynthesisResult(LLMGeneration):
    personas: list[Persona] = field(default_factory=list)
    links: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Prepared:
    """What the fixed cost bought: the personas, and the links added (edges per kind)."""

    personas: list[Persona]
    links: dict[str, int]


def plan(size: int, shares: Mapping[str, float]) -> list[Slot]:
    """Slots in synthesizer order; a ``Slot``'s ``evolution`` holds the synthesizer name."""
    counts = plan_counts(size, shares)
    slots: list[Slot] = []
    for name in SYNTHESIZERS:
        for position in range(counts.get(name, 0)):
            slots.append(Slot(len(slots), name, position))
    return slots


def rule_problems(written: WrittenSample, scenario: Scenario, length: str) -> list[str]:
    """What is wrong with a written record that needs no call to see (empty: nothing).
    No "ends with ?" rule: a web-search query has none."""
    problems = []
    q = written.question.strip()
    if len(q.split()) < 2:
        problems.append("too short: fewer than two words")
    mislabelled = length_problem(q, length)
    if mislabelled:
        problems.append(mislabelled)
    if refers_to_source(q):
        problems.append("refers to its source: 'according to the context' or the like")
    if not written.ground_truth.strip():
        problems.append("empty ground truth")
    used = {n for n in written.contexts_used if 1 <= n <= len(scenario.chunk_ids)}
    if len(scenario.chunk_ids) > 1 and len(used) < 2:
        problems.append(f"uses one context: the writer drew on contexts {sorted(used) or 'none'}")
    return problems


async def _summary_vectors(embedder: Any, graph: KnowledgeGraph) -> dict[str, np.ndarray]:
    """Node id -> unit vector of its summary, for chunks (``summary_similar`` links) and
    documents (spreading the persona call's sample), in one embedding call."""
    from ragmeter.embedders import get_embedder

    ids = [n for n in graph.chunk_ids() + graph.document_ids() if graph.graph.nodes[n].get("summary")]
    if not ids:
        return {}
    model = get_embedder(embedder, cache=False)
    rows = await model.embed([graph.graph.nodes[c]["summary"] for c in ids])
    return {c: np.asarray(r, dtype=np.float32) for c, r in zip(ids, rows)}


async def prepare(judge: FreeFormJudge, graph: KnowledgeGraph, chunks: Sequence[Chunk], *,
                  personas: Sequence[Persona] | None = None, persona_count: int = DEFAULT_PERSONAS,
                  seed: int = 0, embedder: Any = None, concurrency: int = 8,
                  journal: Path | None = None, run: str = "",
                  on_chunks: Callable[[int], None] | None = None) -> Prepared:
    """The fixed cost: profile ``chunks`` (the ones that may seed a question), link them in
    ``graph``, and find the personas: each from the journal when this run already did it,
    the profiles from ``graph`` itself when it was saved from an earlier synthesizer run."""
    state = Journal(journal, run)
    saved = state.saved("profiles")
    nodes = graph.graph.nodes
    if saved is not None:
        profiles = {k: ChunkProfile.model_validate(v) for k, v in saved.items()}
    elif chunks and all("themes" in nodes[c.id] for c in chunks):
        # a graph saved from an earlier synthesizer run (--graph-out) already holds them
        profiles = {c.id: ChunkProfile(n=0, headline=nodes[c.id]["headline"], summary=nodes[c.id]["summary"],
                                       themes=nodes[c.id]["themes"], entities=nodes[c.id]["llm_entities"])
                    for c in chunks}
    else:
        done = await enrich(judge, chunks, concurrency=concurrency, on_chunks=on_chunks)
        profiles = done.profiles
        if done.failures:
            lost = sum(len(ids) for ids, _ in done.failures)
            warnings.warn(f"testset_gen: {lost} of {len(chunks)} chunks could not be profiled and are "
                          f"not used as seeds ({done.failures[0][1][:200]})", EnrichmentWarning, stacklevel=3)
        if not done.failures:  # a partial enrichment is redone on resume, not frozen
            state.save("profiles", {k: v.model_dump(mode="json") for k, v in profiles.items()})
    apply_profiles(graph, profiles)
    vectors = await _summary_vectors(embedder, graph) if embedder is not None else {}
    links = link_chunks(graph, vectors or None)

    if personas:
        return Prepared(list(personas), links)
    saved = state.saved("personas")
    if saved:
        return Prepared([Persona.model_validate(p) for p in saved], links)
    # document summaries, not chunk summaries: one long document would otherwise fill the
    # persona call's sample with its own chunks
    ids = [d for d in graph.document_ids() if graph.graph.nodes[d].get("summary")]
    summaries = [graph.graph.nodes[d]["summary"] for d in ids]
    found: list[Persona] = []
    if summaries:
        matrix = np.stack([vectors[c] for c in ids]) if vectors and all(c in vectors for c in ids) else None
        try:
            try:
                found = await derive_personas(judge, summaries, persona_count, seed=seed, vectors=matrix)
            except JudgeError as exc:
                if not exc.transient:
                    raise
                # one call for the whole run, whose every question it shapes: a bad reply
                # (broken JSON, a refusal) is worth a second try before the generic persona
                found = await derive_personas(judge, summaries, persona_count, seed=seed, vectors=matrix)
        except JudgeError as exc:
            warnings.warn(f"testset_gen: the persona call failed ({type(exc).__name__}: {exc}); "
                          f"every question is written for the generic persona {GENERIC_PERSONA.name!r}",
                          PersonaWarning, stacklevel=3)
    if found:
        state.save("personas", [p.model_dump(mode="json") for p in found])
    return Prepared(found or [GENERIC_PERSONA], links)


def _record(slot: Slot, scenario: Scenario, chunks: tuple[Chunk, ...], written: WrittenSample,
            review: SampleReview, persona: Persona, style: str, length: str, judge_name: str) -> TestsetRecord:
    ids = [c.id for c in chunks]
    return TestsetRecord(
        id=content_id(written.question, written.ground_truth, *ids, prefix="q-"),
        question=written.question.strip(),
        ground_truth=written.ground_truth.strip(),
        reference_contexts=[c.text for c in chunks],
        evolution_type=EVOLUTION_OF[slot.evolution],
        reference_context_ids=ids,
        sources=[c.source_metadata() for c in chunks],
        metadata={"generator": "llm", "judge": judge_name, "synthesizer": slot.evolution,
                  "persona": persona.name, "persona_role": persona.role_description,
                  "query_style": style, "query_length": length, **describe(scenario),
                  "chunk_ids": ids, "document_ids": list(dict.fromkeys(c.document_id for c in chunks)),
                  "critic": review.reason},
    )


async def synthesize(
    judge: Judge,
    graph: KnowledgeGraph,
    chunks: Sequence[Chunk],
    size: int,
    shares: Mapping[str, float],
    prepared: Prepared,
    *,
    seed: int = 0,
    query_styles: str | Mapping[str, float] | None = None,
    query_lengths: str | Mapping[str, float] | None = None,
    max_attempts: int = 3,
    concurrency: int = 8,
    journal: Path | None = None,
    run: str = "",
    on_record: Callable[[int], None] | None = None,
) -> SynthesisResult:
    """Write ``size`` records with the synthesizers in ``shares`` over a ``graph`` that
    ``prepare`` enriched; ``chunks``: the chunks that may seed a question. See the module
    docstring."""
    calls_before = judge.usage.calls
    found_personas = prepared.personas
    seedable = {c.id for c in chunks}
    by_id = {c.id: c for c in chunks}
    pools: dict[str, list[Scenario]] = {}
    for name, found in scenarios(graph).items():
        pool = [s for s in found if all(c in seedable for c in s.chunk_ids)]
        random.Random(f"{seed}:{name}").shuffle(pool)
        # chunks of different documents first (a stable sort keeps the seeded order within
        # each group): neighbouring chunks of one document repeat up to 32 tokens of each
        # other, so a "multi-hop" pair of them is often answered by one chunk alone
        pool.sort(key=lambda s: len({by_id[c].document_id for c in s.chunk_ids}) < len(s.chunk_ids))
        pools[name] = pool
    slots = plan(size, shares)
    counts = plan_counts(size, shares)
    styles = assign(len(slots), parse_styles(query_styles), seed, "style")
    lengths = assign(len(slots), parse_lengths(query_lengths), seed, "length")

    writer = _SynthesisWriter(judge, graph, by_id, pools, counts, found_personas, styles, lengths, seed)
    done = await attempt_slots(writer, slots, Journal(journal, run), batch=BATCH, max_attempts=max_attempts,
                               concurrency=concurrency, on_record=on_record)
    return SynthesisResult(records=done.records(), shortfall=done.shortfall, rejected=done.rejected,
                           calls=judge.usage.calls - calls_before, personas=found_personas,
                           links=prepared.links)


Picked = tuple[Scenario, Persona]


@dataclass
class _SynthesisWriter:
    """``attempts.Writer`` for the synthesizers: a scenario of the slot's synthesizer and a
    persona matched to its topic, one ``WrittenSample`` per call in the slot's query style and
    length, reviewed by ``synthesis_critic``."""

    judge: Judge
    graph: KnowledgeGraph
    by_id: Mapping[str, Chunk]
    pools: Mapping[str, list[Scenario]]
    counts: Mapping[str, int]
    personas: Sequence[Persona]
    styles: Sequence[str]
    lengths: Sequence[str]
    seed: int

    def pick(self, slot: Slot, attempt: int) -> Picked | None:
        pool = self.pools.get(slot.evolution) or []
        if not pool:
            return None
        n = max(1, self.counts.get(slot.evolution, 1))
        scenario = pool[(slot.position + attempt * n) % len(pool)]
        topic = words([scenario.topic, *(t for c in scenario.chunk_ids
                                         for t in self.graph.graph.nodes[c].get("themes", []))])
        rng = random.Random(f"{self.seed}:{slot.index}:{attempt}:persona")
        return scenario, match_persona(self.personas, topic, rng)

    def unpicked(self, slot: Slot) -> str | None:
        return _NO_SCENARIO[slot.evolution]

    async def write(self, slot: Slot, picked: Picked) -> WrittenSample:
        scenario, persona = picked
        messages = synthesis_messages(slot.evolution, [self.by_id[c].text for c in scenario.chunk_ids],
                                      scenario.topic, persona, self.styles[slot.index],
                                      self.lengths[slot.index])
        return await self.judge.generate(messages, WrittenSample)

    def question(self, draft: WrittenSample) -> str:
        return draft.question

    def problems(self, slot: Slot, picked: Picked, draft: WrittenSample) -> list[str]:
        language = wrong_language([draft.question, draft.ground_truth],
                                  [self.by_id[c].text for c in picked[0].chunk_ids])
        return rule_problems(draft, picked[0], self.lengths[slot.index]) + ([language] if language else [])

    async def review(self, batch: Sequence[tuple[Slot, Picked, WrittenSample]]) -> list[SampleReview | None]:
        drafts = [Draft(w.question, w.ground_truth, tuple(self.by_id[c].text for c in sc.chunk_ids),
                        self.styles[s.index], len(sc.chunk_ids) > 1) for s, (sc, _), w in batch]
        return reviews_in_order(await self.judge.generate(review_messages(drafts), SampleReviews), len(batch))

    def verdict(self, slot: Slot, picked: Picked, draft: WrittenSample,
                review: SampleReview | None) -> list[str]:
        if review is None:
            return ["not reviewed: the critic call failed or skipped it"]
        return review.problems(len(picked[0].chunk_ids) > 1)

    def record(self, slot: Slot, picked: Picked, draft: WrittenSample, review: SampleReview) -> TestsetRecord:
        scenario, persona = picked
        return _record(slot, scenario, tuple(self.by_id[c] for c in scenario.chunk_ids), draft, review,
                       persona, self.styles[slot.index], self.lengths[slot.index], self.judge.name)
