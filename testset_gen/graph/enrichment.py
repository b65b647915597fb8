"""Knowledge-graph enrichment by an LLM: a headline, summary, themes and entities per chunk.

spaCy's entities and keyphrases (``graph.build_graph``) are cheap but literal: they miss
that two chunks are both about "radioactivity research" and they tag a band as a person.
An LLM reading the chunk names what it is about in words a question writer can use, and
the synthesizers pick their topics and their chunk links from these profiles.

Cost: one call per ``BATCH`` chunks of the same document (the chunks of a document are read
together, in reading order, so a chunk that continues the previous one is understood), the
fixed cost of a synthesizer run; every call goes through the judge's cache. A batch whose
call fails leaves its chunks without a profile (they are then not used as seeds) and its
error is returned, not raised: one bad reply does not stop the run.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Callable, Sequence

from pydantic import BaseModel, Field

from ragmeter.errors import JudgeError
from ragmeter.judges.protocol import FreeFormJudge, Message
from ragmeter.prompts.fencing import DATA_NOTICE, fence_numbered
from testset_gen.documents.document import Chunk

BATCH = 6
"""Chunks profiled per call (of one document). At 256 tokens a chunk, six make a prompt of
about 2,000 tokens and a reply of about 700: one call per short document, and few for a long
one."""


class ChunkProfile(BaseModel):
    """What the LLM says one chunk is about."""

    n: int = Field(description="the number of the chunk")
    headline: str = Field(description="a heading of at most 10 words for this chunk")
    summary: str = Field(description="one or two sentences: what this chunk says")
    themes: list[str] = Field(default_factory=list, description="1 to 4 short noun phrases: the topics the chunk is about")
    entities: list[str] = Field(default_factory=list, description="named people, organisations, places, works, products, events, as written, at most 8")


class ProfileBatch(BaseModel):
    """What one enrichment call returns."""

    chunks: list[ChunkProfile]


@dataclass(frozen=True)
class Enrichment:
    """Profiles by chunk id, and ``(chunk ids, error)`` for batches whose call failed."""

    profiles: dict[str, ChunkProfile]
    failures: list[tuple[list[str], str]]


def batches(chunks: Sequence[Chunk], size: int = BATCH) -> list[list[Chunk]]:
    """The chunks grouped by document, in reading order, ``size`` at a time."""
    by_doc: dict[str, list[Chunk]] = {}
    for c in chunks:
        by_doc.setdefault(c.document_id, []).append(c)
    out: list[list[Chunk]] = []
    for doc_chunks in by_doc.values():
        doc_chunks = sorted(doc_chunks, key=lambda c: (c.index, c.start))
        out.extend(doc_chunks[i:i + size] for i in range(0, len(doc_chunks), size))
    return out


def enrichment_messages(chunks: Sequence[Chunk]) -> list[Message]:
    title = chunks[0].title or chunks[0].source
    user = (
        f"The numbered chunks below are consecutive parts of one document ({title}). For EACH "
        "chunk give: a headline (at most 10 words), a summary (one or two sentences, what the "
        "chunk itself says), themes (1 to 4 short noun phrases naming its topics, general "
        "enough that another document on the same topic would share them) and entities (the "
        "named people, organisations, places, works, products and events it mentions, written "
        "in full as the chunk writes them, at most 8; no dates or numbers). Write in the "
        "chunk's language.\n\n"
        + fence_numbered("chunk", [c.text for c in chunks])
        + f'\n\nReply with {{"chunks": [...]}}: one entry per chunk, n = 1..{len(chunks)}.'
    )
    system = "You index documents for a search system. " + DATA_NOTICE
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def _clean(profile: ChunkProfile) -> ChunkProfile:
    def unique(items: list[str], limit: int) -> list[str]:
        seen: dict[str, str] = {}
        for item in items:
            text = " ".join(item.split())
            if text and text.casefold() not in seen:
                seen[text.casefold()] = text
        return list(seen.values())[:limit]

    return ChunkProfile(n=profile.n, headline=" ".join(profile.headline.split()),
                        summary=" ".join(profile.summary.split()),
                        themes=unique(profile.themes, 4), entities=unique(profile.entities, 8))


async def enrich(judge: FreeFormJudge, chunks: Sequence[Chunk], *, batch: int = BATCH,
                 concurrency: int = 8, on_chunks: Callable[[int], None] | None = None) -> Enrichment:
    """Profile every chunk (see the module docstring); ``on_chunks(n)`` after each call,
    for a progress bar."""
    gate = asyncio.Semaphore(concurrency)

    async def one(group: list[Chunk]) -> tuple[list[Chunk], ProfileBatch | str]:
        async with gate:
            try:
                for tries_left in (1, 0):  # a transient failure (a bad reply) is tried once more:
                    try:                   # a lost batch loses all its chunks as seeds
                        return group, await judge.generate(enrichment_messages(group), ProfileBatch)
                    except JudgeError as exc:
                        if not (exc.transient and tries_left):
                            return group, f"{type(exc).__name__}: {exc}"
                raise AssertionError("unreachable")
            finally:
                if on_chunks:
                    on_chunks(len(group))

    profiles: dict[str, ChunkProfile] = {}
    failures: list[tuple[list[str], str]] = []
    for group, reply in await asyncio.gather(*(one(g) for g in batches(chunks, batch))):
        if isinstance(reply, str):
            failures.append(([c.id for c in group], reply))
            continue
        for p in reply.chunks:
            if 1 <= p.n <= len(group) and group[p.n - 1].id not in profiles:
                profiles[group[p.n - 1].id] = _clean(p)
        missing = [c.id for c in group if c.id not in profiles]
        if missing:
            failures.append((missing, "the enrichment reply skipped these chunks"))
    return Enrichment(profiles=profiles, failures=failures)
