"""``generate_conversations``: chat scenarios from a folder of documents.

With the local judge (the default: no key, no network) the offline generator writes a pool
of single-turn records and ``follow_ups`` regroups them into conversations; with an LLM
judge each conversation is written by one call (``writer``) for a persona and checked by
rule and by the local judge. Either way every turn keeps its ground truth and reference
contexts, and a shortfall says why: the documents (too few follow-ups on one subject or page), or
the judge (its failed calls counted by kind, as on the single-turn path). A run whose every
call to the judge failed stops with ``JudgeFailedThroughout``: an empty file would blame
the documents.
"""

from __future__ import annotations

import asyncio
import random
import warnings
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ragmeter.calls.cache import CacheSetting, open_cache
from ragmeter.calls.usage import Usage
from ragmeter.errors import InvalidOption, JudgeError, JudgeFailedThroughout
from ragmeter.judges.options import JudgeOptions
from ragmeter.judges.protocol import Judge
from ragmeter.runtime import progress_bar, run_sync
from testset_gen.conversations.follow_ups import conversations_from_records
from testset_gen.conversations.page_walk import page_conversations
from testset_gen.conversations.scenario import ConversationScenario, ConversationSet, ScenarioTurn
from testset_gen.conversations.writer import (WrittenConversation, conversation_messages, conversation_problems,
                                              refers_back, supporting, turn_problems)
from testset_gen.documents.chunking import chunk_documents
from testset_gen.documents.document import Chunk, content_id
from testset_gen.documents.ingest import load_documents
from testset_gen.llm.judge_faults import TalliedJudge, faults, nothing_but_the_judge

MIN_TURNS, MAX_TURNS = 2, 6
POOL_PER_TURN = 2
"""Offline: single-turn records written per turn asked for, to group into conversations."""
OFFLINE_MIX = "simple=0.6,reasoning=0.2,multi_context=0.2"
"""Offline pool: facts of one subject make follow-ups; derived and bridged ones add variety."""
MIN_SECTION_TOKENS = 24


@dataclass
class ConversationResult:
    """The conversations and what a user needs to trust them or see what went wrong."""

    conversations: ConversationSet
    requested: int
    turns: int
    skipped: list[tuple[str, str]] = field(default_factory=list)
    rejected: Counter[str] = field(default_factory=Counter)
    """Why conversations (or their last turns) were not kept, by reason."""
    usage: Usage | None = None
    judge_faults: dict[str, int] = field(default_factory=dict)
    judge_calls: int = 0
    personas: list[Any] = field(default_factory=list)
    pool: int = 0
    """Offline: single-turn records the conversations were grouped from."""

    @property
    def shortfall(self) -> int:
        return max(0, self.requested - len(self.conversations))

    def why_short(self) -> str | None:
        """The shortfall's cause in one sentence, or None when nothing is missing."""
        if not self.shortfall:
            return None
        if self.judge_faults:
            kinds = ", ".join(f"{k} {n}" for k, n in self.judge_faults.items())
            return (f"the judge failed or answered unusably {sum(self.judge_faults.values())} times ({kinds}; "
                    f"{self.judge_calls} calls made), and drafts were rejected: {_top(self.rejected)}")
        if self.usage is None:
            return (f"the documents gave {self.pool} single-turn records but too few follow-ups on one subject "
                    f"or page ({_top(self.rejected) or 'no more follow-ups'}); more documents or an LLM judge help")
        return f"drafts were rejected: {_top(self.rejected) or 'no section left to write from'}"


def _top(reasons: Counter[str], n: int = 3) -> str:
    return ", ".join(f"{r} {k}" for r, k in reasons.most_common(n))


def _sections(chunks: Sequence[Chunk]) -> list[tuple[Chunk, ...]]:
    """Each chunk long enough to ask about, with the next chunk of its document (a section
    of two passages gives a follow-up something to ask)."""
    out: list[tuple[Chunk, ...]] = []
    for i, c in enumerate(chunks):
        if c.tokens < MIN_SECTION_TOKENS:
            continue
        nxt = chunks[i + 1] if i + 1 < len(chunks) and chunks[i + 1].document_id == c.document_id else None
        out.append((c, nxt) if nxt is not None else (c,))
    return out


async def _offline(source: Any, size: int, turns: int, seed: int, advance: Callable[[int], None],
                   chunk_tokens: int, overlap_tokens: int) -> ConversationResult:
    from testset_gen.generator import agenerate
    from testset_gen.offline.generator import ShortfallWarning

    pool_size = size * turns * POOL_PER_TURN
    graph = None
    skipped: list[tuple[str, str]] = []
    for _ in range(2):  # a second, larger pool when the first grouped too few
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ShortfallWarning)  # the conversations' shortfall is reported instead
            pool = await agenerate(source, pool_size, judge="local", distribution=OFFLINE_MIX, seed=seed,
                                   cache=False, journal=False, graph=graph, chunk_tokens=chunk_tokens,
                                   overlap_tokens=overlap_tokens)
        graph, skipped = pool.graph, skipped or pool.skipped
        made = conversations_from_records(pool.testset.records, size, turns, seed=seed)
        made.scenarios += page_conversations(pool.testset.records, size - len(made.scenarios), turns, made.used, seed)
        if len(made.scenarios) >= size or len(pool.testset) < pool_size:
            break
        pool_size *= 2
    advance(len(made.scenarios))
    rejected: Counter[str] = Counter()
    if len(made.scenarios) < size:
        # counted after both groupings (by subject, then page by page): a record the page walk
        # used is no loss, whatever the subject grouping thought of it
        unused = len(pool.testset) - sum(len(s.turns) for s in made.scenarios)
        if unused > 0:
            rejected["single-turn records no chat could follow up (no second question on their "
                     "subject or page that refers back)"] = unused
    return ConversationResult(ConversationSet(scenarios=made.scenarios,
                                              settings={"generator": "offline", "pool": len(pool.testset)}),
                              size, turns, skipped=skipped, rejected=rejected, pool=len(pool.testset))


async def _support(turns: Sequence[tuple[str, str, Sequence[str]]]) -> list[list[str]]:
    """The local judge's reasons per (standalone question, ground truth, contexts): the
    offline generator's support check, run off the event loop (it has its own run)."""
    from testset_gen.offline.record_filter import FilterInput, judge_reasons

    items = [FilterInput(q, gt, "", (), tuple(ctx)) for q, gt, ctx in turns]
    return await asyncio.to_thread(judge_reasons, items)


async def _with_llm(llm: TalliedJudge, source: Any, size: int, turns: int, seed: int, personas: Any,
                    max_attempts: int, concurrency: int, check_support: bool, advance: Callable[[int], None],
                    chunk_tokens: int, overlap_tokens: int) -> ConversationResult:
    from testset_gen.llm.personas import GENERIC_PERSONA, derive_personas, load_personas, match_persona, words

    ingested = load_documents(source)
    if not ingested.documents:
        raise InvalidOption(f"no readable documents in {source!r}")
    chunks = chunk_documents(ingested.documents, max_tokens=chunk_tokens, overlap_tokens=overlap_tokens)
    sections = _sections(chunks) or [(c,) for c in chunks]
    rng = random.Random(f"{seed}:conversation-sections")
    rng.shuffle(sections)
    if personas is not None:
        people = load_personas(personas)
    else:
        try:  # one call for the run, not per conversation
            people = await derive_personas(llm, [s[0].text[:400] for s in sections], seed=seed)
        except JudgeError:
            people = []
        people = people or [GENERIC_PERSONA]
    rejected: Counter[str] = Counter()
    reasons: list[str] = []
    kept: dict[int, ConversationScenario] = {}
    gate = asyncio.Semaphore(concurrency)

    async def slot(index: int) -> None:
        for attempt in range(max_attempts):
            position = index + attempt * size
            if attempt and position >= len(sections):
                break  # no fresh section left for another try: writing one again would repeat it
            section = sections[position % len(sections)]
            passages = [c.text for c in section]
            persona = match_persona(people, words(passages), random.Random(f"{seed}:{index}:{attempt}"))
            try:
                async with gate:
                    written = await llm.generate(conversation_messages(persona, passages, turns), WrittenConversation)
            except JudgeError as exc:
                reasons.append(f"{type(exc).__name__}: {exc}")
                continue
            scenario, why = await _checked(written, section, persona.name, index)
            reasons.extend(why)
            rejected.update(r.split(":", 1)[-1].strip() if r.startswith("turn ") else r for r in why)
            if scenario is not None:
                kept[index] = scenario
                advance(1)
                return

    async def _checked(written: WrittenConversation, section: tuple[Chunk, ...], persona: str,
                       index: int) -> tuple[ConversationScenario | None, list[str]]:
        passages = [c.text for c in section]
        why = conversation_problems(written, passages)
        if why:
            return None, why
        good: list[ScenarioTurn] = []
        for n, t in enumerate(written.turns[:turns], start=1):
            problems = turn_problems(n, t, passages)
            if problems:
                why += problems
                break
            used = [section[i] for i in supporting(t.evidence, passages)]
            good.append(ScenarioTurn(
                question=t.question.strip(), standalone=t.standalone_question.strip(), ground_truth=t.ground_truth.strip(),
                reference_contexts=[c.text for c in used], reference_context_ids=[c.id for c in used],
                refers_back="llm" if n > 1 and refers_back(t) else "",
                metadata={"structure": "same_section", "evidence": t.evidence,
                          "sources": [c.source_metadata() for c in used]}))
        if check_support and good:
            verdicts = await _support([(g.standalone, g.ground_truth, g.reference_contexts) for g in good])
            for n, v in enumerate(verdicts, start=1):
                if v:
                    why += [f"turn {n}: {r}" for r in v]
                    good = good[:n - 1]
                    break
        if len(good) < MIN_TURNS:
            return None, why or ["fewer than two turns"]
        return ConversationScenario(
            id=content_id(*(t.question for t in good), *(c.id for c in section), prefix="conv-"),
            subject=written.subject.strip(), turns=good,
            metadata={"generator": "llm", "persona": persona, "seed": seed,
                      "section_ids": [c.id for c in section]}), why

    await asyncio.gather(*(slot(i) for i in range(size)))
    scenarios = [kept[i] for i in sorted(kept)]
    if not scenarios and (failed := nothing_but_the_judge(llm, reasons)) is not None:
        raise JudgeFailedThroughout(failed)
    return ConversationResult(ConversationSet(scenarios=scenarios, settings={"generator": "llm", "judge": llm.name}),
                              size, turns, skipped=list(ingested.skipped), rejected=rejected, usage=llm.usage,
                              judge_faults=faults(llm, reasons), judge_calls=llm.calls, personas=people)


async def agenerate_conversations(
    source: Any,
    size: int,
    *,
    turns: int = 3,
    judge: Judge | str | None = "local",
    seed: int = 0,
    cache: CacheSetting = True,
    personas: Any = None,
    max_attempts: int = 3,
    concurrency: int = 8,
    check_support: bool = True,
    chunk_tokens: int = 256,
    overlap_tokens: int = 32,
    show_progress: bool = False,
    judge_options: JudgeOptions | Mapping[str, Any] | None = None,
) -> ConversationResult:
    """Async form of ``generate_conversations``."""
    from ragmeter.judges.spec import get_judge

    if size < 1:
        raise InvalidOption("size must be at least 1 conversation")
    if not MIN_TURNS <= turns <= MAX_TURNS:
        raise InvalidOption(f"turns must be between {MIN_TURNS} and {MAX_TURNS}, not {turns}")
    disk = open_cache(cache)
    the_judge = get_judge(judge, cache=disk if disk is not None else False, options=judge_options)
    try:
        with progress_bar(size, "writing conversations", enabled=show_progress) as advance:
            if not the_judge.generative:
                if personas is not None:
                    raise InvalidOption("personas need an LLM judge that writes (e.g. judge='openai:gpt-4o-mini')")
                result = await _offline(source, size, turns, seed, advance, chunk_tokens, overlap_tokens)
            else:
                result = await _with_llm(TalliedJudge(the_judge), source, size, turns, seed, personas, max_attempts,
                                         concurrency, check_support, advance, chunk_tokens, overlap_tokens)
    finally:
        close = getattr(the_judge, "aclose", None)
        if close is not None:
            await close()
    result.conversations.settings.update(size=size, turns=turns, seed=seed, judge=the_judge.name)
    return result


def generate_conversations(source: Any, size: int, **options: Any) -> ConversationResult:
    """``size`` conversations of 2 to ``turns`` user turns from ``source`` (a folder or
    file, as ``generate`` reads). ``judge``: ``"local"`` (offline: single-turn records
    regrouped, follow-ups reworded by rule) or an LLM judge spec (one call per conversation,
    for a persona; ``personas``: a file or list of ``{"name", "role_description"}``, else
    derived from the documents in one call). ``check_support``: the local judge checks
    each LLM-written answer against its passages. The result's ``conversations.to_jsonl``
    writes what ``ragmeter run --conversations`` drives and ``load_conversations`` reads."""
    return run_sync(lambda: agenerate_conversations(source, size, **options))
