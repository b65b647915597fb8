"""documents -> chunks -> knowledge graph -> questions: the whole pipeline behind one call.

``generate("docs/", size=50, judge="openai:gpt-4o-mini")`` reads the folder, cuts it into
chunks, builds the knowledge graph and writes the questions with the LLM judge (evolutions
and a critic, ``llm_generator``); with ``judge="local"`` (the default: no key, no network)
the offline generator writes them from entities and their sentences instead
(``offline``), which is useful for smoke tests and CI but is no substitute for an LLM.

Reproducible and resumable: the same documents, settings and seed give the same test set
(the LLM's replies come from the judge's disk cache on a rerun); kept questions are
journalled as they are accepted, so an interrupted run picks up where it stopped.
"""

from __future__ import annotations

import logging
import warnings
from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from ragmeter.calls.cache import CacheSetting, cache_key, default_cache_dir, open_cache
from ragmeter.calls.usage import Usage
from ragmeter.runtime import progress_bar, run_sync
from ragmeter.judges.options import JudgeOptions
from ragmeter.judges.protocol import Judge
from testset_gen.documents.chunking import chunk_documents
from testset_gen.distribution import parse_distribution, plan_counts
from testset_gen.documents.document import Chunk, Document
from testset_gen.llm.evolutions import EVOLUTION_PROMPTS
from testset_gen.graph.knowledge_graph import KnowledgeGraph, build_graph
from testset_gen.documents.file_readers import FORMATS
from testset_gen.documents.ingest import load_documents
from testset_gen.llm.judge_faults import TalliedJudge, faults, nothing_but_the_judge
from testset_gen.llm.attempts import Rejection
from testset_gen.llm.evolution_writer import generate_with_llm, summarise
from testset_gen.offline.generator import ShortfallWarning, generate_offline
from testset_gen.record import Testset

log = logging.getLogger("testset_gen")

MIN_SEED_TOKENS = 24
"""Chunks shorter than this are not used as seeds (too little to ask about)."""


@dataclass
class GenerationResult:
    """The test set and everything a user needs to trust it or see what went wrong."""

    testset: Testset
    graph: KnowledgeGraph
    skipped: list[tuple[str, str]] = field(default_factory=list)
    """Files that could not be read: (path, reason)."""
    requested: dict[str, int] = field(default_factory=dict)
    shortfall: dict[str, int] = field(default_factory=dict)
    """Questions per type that could not be generated (0 everywhere when all were)."""
    rejected: list[Rejection] = field(default_factory=list)
    """Questions the rule check or the critic dropped, with the reasons."""
    usage: Usage | None = None
    journal: Path | None = None
    filter_rejections: dict[str, dict[str, int]] = field(default_factory=dict)
    """Offline path: evolution type -> filter reason -> candidates the filter dropped."""
    personas: list[Any] = field(default_factory=list)
    """Synthesizer path: the personas the questions were written for."""
    judge_faults: dict[str, int] = field(default_factory=dict)
    """LLM paths: judge calls that failed, by kind (``malformed output``, ``refusal``,
    ``truncated reply``, a timeout's or an outage's error kind), and drafts rejected for
    being in another language than their contexts (``wrong language``); empty when the judge
    never failed. What a shortfall is owed to the judge rather than to the documents."""
    judge_calls: int = 0
    """LLM paths: calls the generator made to the judge (a call and its repair re-ask are one)."""
    filled: dict[str, int] = field(default_factory=dict)
    """Offline path: type -> records written beyond its share in place of the short types
    (empty with ``exact_mix``)."""

    def written(self) -> dict[str, int]:
        """Records per kind asked for: per evolution type, or per synthesizer on the
        synthesizer path (the record's ``metadata["synthesizer"]``)."""
        out = {k: 0 for k in self.requested}
        for r in self.testset.records:
            kind = str(r.metadata.get("synthesizer") or r.evolution_type)
            out[kind] = out.get(kind, 0) + 1
        return out

    def rejections_by_type(self) -> dict[str, dict[str, int]]:
        """Evolution type -> reason -> questions dropped for it, from either path (the
        offline filter's candidates, the LLM path's rule check and critic)."""
        out = {t: dict(r) for t, r in self.filter_rejections.items()}
        for rej in self.rejected:
            counts = out.setdefault(rej.evolution, {})
            for reason in rej.reasons or ["rejected"]:
                key = reason.split(":", 1)[0].strip()[:40]
                counts[key] = counts.get(key, 0) + 1
        return out

    @property
    def calls_per_question(self) -> float | None:
        """LLM calls sent per kept question (summaries included; cache hits are not calls)."""
        if self.usage is None or not self.testset.records:
            return None
        return self.usage.calls / len(self.testset.records)


def seed_pairs(graph: KnowledgeGraph) -> list[tuple[str, str]]:
    """Chunk pairs a multi-context question can bridge: a shared entity first, then a shared
    keyphrase, then embedding similarity; each pair once, in that order."""
    pairs: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()
    candidates = [(b.a, b.b) for b in graph.bridges()]
    candidates += [(u, v) for u, v, _ in graph.edges("shared_keyphrase")]
    candidates += [(u, v) for u, v, _ in graph.edges("similar")]
    for a, b in candidates:
        key = frozenset((a, b))
        if a != b and key not in seen:
            seen.add(key)
            pairs.append((a, b))
    return pairs


class LanguageWarning(UserWarning):
    """Documents not in English were left out of an offline run; the message names them."""


def _english_only(documents: Sequence[Document], chunks: Sequence[Chunk]
                  ) -> tuple[list[Document], list[Chunk], list[tuple[str, str]]]:
    """The English documents and their chunks, and ``(source, reason)`` for the others.

    The offline generator's rules are English grammar; on German they wrote "Who ist Berlin
    die?". One warning names every skipped file with its language."""
    from testset_gen.documents.language import detect_language, language_name

    keep: list[Document] = []
    foreign: dict[str, list[str]] = {}
    for d in documents:
        code = detect_language(d.text)
        if code == "en":
            keep.append(d)
        else:
            foreign.setdefault(language_name(code), []).append(d.source)
    if not foreign:
        return list(documents), list(chunks), []
    kept = {d.id for d in keep}
    detail = "; ".join(f"{lang}: {', '.join(files)}" for lang, files in foreign.items())
    warnings.warn(f"offline generator: skipped documents not in English ({detail}); its "
                  "question rules are English-only, an LLM judge writes questions in the "
                  "documents' language", LanguageWarning, stacklevel=3)
    reasons = [(f, f"{lang} text: the offline generator is English-only")
               for lang, files in foreign.items() for f in files]
    return keep, [c for c in chunks if c.document_id in kept], reasons


def run_identity(documents: Sequence[Document], settings: Mapping[str, Any]) -> str:
    return cache_key({"documents": [d.id for d in documents], "settings": dict(settings)})[:16]


async def agenerate(
    source: Any,
    size: int,
    *,
    judge: Judge | str | None = "local",
    distribution: str | Mapping[str, float] | None = None,
    seed: int = 0,
    exact_mix: bool = False,
    cache: CacheSetting = True,
    resume: bool = True,
    journal: str | Path | bool | None = True,
    chunk_tokens: int = 256,
    overlap_tokens: int = 32,
    similarity_threshold: float = 0.75,
    summaries: bool = True,
    max_attempts: int = 3,
    concurrency: int = 8,
    graph: KnowledgeGraph | None = None,
    show_progress: bool = False,
    judge_options: JudgeOptions | Mapping[str, Any] | None = None,
    synthesizers: str | Mapping[str, float] | None = None,
    personas: str | Path | Sequence[Any] | int | None = None,
    query_styles: str | Mapping[str, float] | None = None,
    query_lengths: str | Mapping[str, float] | None = None,
    embedder: Any = None,
) -> GenerationResult:
    """Async form of ``generate``."""
    from ragmeter.errors import JudgeFailedThroughout
    from ragmeter.judges.spec import get_judge

    if size < 1:
        raise ValueError("size must be at least 1")
    synthesis = any(x is not None for x in (synthesizers, personas, query_styles, query_lengths))
    if synthesis:
        from testset_gen.llm.personas import DEFAULT_PERSONAS, load_personas
        from testset_gen.llm.query_style import parse_lengths, parse_styles
        from testset_gen.llm.synthesis import parse_synthesizers

        shares = parse_synthesizers(synthesizers)
        given_personas = (None if personas is None or isinstance(personas, int)
                          else load_personas(personas))
        persona_count = personas if isinstance(personas, int) else DEFAULT_PERSONAS
        if persona_count < 1:
            raise ValueError("personas: the number of personas to derive must be at least 1")
        style_shares, length_shares = parse_styles(query_styles), parse_lengths(query_lengths)
    else:
        if embedder is not None:
            raise ValueError("embedder is used by the synthesizer path only; give synthesizers= "
                             "(e.g. 'single_hop_specific=0.5,multi_hop_specific=0.25,multi_hop_abstract=0.25')")
        shares = parse_distribution(distribution)
    requested = plan_counts(size, shares)
    skipped: list[tuple[str, str]] = []
    if graph is None:
        ingested = load_documents(source)
        documents, skipped = list(ingested.documents), list(ingested.skipped)
        if not documents:
            raise ValueError(f"no readable documents in {source!r}"
                             + (f" (skipped: {', '.join(p for p, _ in skipped)})" if skipped else "")
                             + unsupported_note(ingested.unsupported))
        chunks: list[Chunk] = chunk_documents(documents, max_tokens=chunk_tokens,
                                              overlap_tokens=overlap_tokens)
    else:
        documents, chunks = graph.documents(), graph.chunks()

    disk = open_cache(cache)
    the_judge = get_judge(judge, cache=disk if disk is not None else False, options=judge_options)
    # questions are written by a judge that answers free-form prompts (an LLM, or a cascade's
    # LLM); the local judge's models cannot write, so the offline generator runs instead
    llm = TalliedJudge(the_judge) if the_judge.generative else None
    if synthesis and llm is None:
        raise ValueError("synthesizers, personas and query styles need an LLM judge that writes "
                         f"(judge={the_judge.name!r} cannot); e.g. judge='openai:gpt-4o-mini'")
    if llm is None and graph is None:
        documents, chunks, foreign = _english_only(documents, chunks)
        skipped += foreign
        if not documents:
            raise ValueError(f"no English documents in {source!r} for the offline generator "
                             f"(skipped: {', '.join(p for p, _ in skipped)}); use an LLM judge")
    settings = {
        "size": size, "distribution": shares, "seed": seed, "judge": the_judge.name, "exact_mix": exact_mix,
        "chunk_tokens": chunk_tokens, "overlap_tokens": overlap_tokens,
        "similarity_threshold": similarity_threshold, "summaries": bool(summaries and llm),
        "max_attempts": max_attempts,
        "prompts": cache_key({k: p.model_dump(mode="json") for k, p in EVOLUTION_PROMPTS.items()})[:16],
    }
    if synthesis:
        from testset_gen.llm.synthesizers import SYNTHESIZER_PROMPTS

        settings.update(summaries=False, synthesis={
            "styles": style_shares, "lengths": length_shares,
            "personas": [p.model_dump() for p in given_personas] if given_personas else persona_count,
            "embedder": getattr(embedder, "name", embedder),
            "prompts": cache_key({k: p.model_dump(mode="json") for k, p in SYNTHESIZER_PROMPTS.items()})[:16],
        })
    identity = run_identity(documents, settings)
    journal_path: Path | None = None
    if journal and llm is not None:
        journal_path = (default_cache_dir() / "testsets" / f"{identity}.jsonl"
                        if journal is True else Path(journal))
        if not resume and journal_path.exists():
            journal_path.unlink()

    try:
        node_summaries: dict[str, str] = {}
        if llm is not None and summaries and graph is None and not synthesis:
            node_summaries = await summarise(llm, documents, concurrency=concurrency)
        if graph is None:
            graph = build_graph(documents, chunks, similarity_threshold=similarity_threshold,
                                summaries=node_summaries)
        else:
            node_summaries = {d: str(graph.node(d)["summary"]) for d in graph.document_ids()
                              if graph.node(d).get("summary")}
        rejected: list[Rejection] = []
        filter_rejections: dict[str, dict[str, int]] = {}
        used_personas: list[Any] = []
        filled: dict[str, int] = {}
        prepared = None
        if synthesis and llm is not None:
            from testset_gen.llm.synthesis import prepare, synthesize

            seeds = [c for c in chunks if c.tokens >= MIN_SEED_TOKENS] or list(chunks)
            with progress_bar(len(seeds), "profiling chunks", enabled=show_progress) as profiled:
                prepared = await prepare(
                    llm, graph, seeds, personas=given_personas, persona_count=persona_count,
                    seed=seed, embedder=embedder, concurrency=concurrency, journal=journal_path,
                    run=identity, on_chunks=profiled)
        with progress_bar(size, "generating", enabled=show_progress) as advance:
            if prepared is not None and llm is not None:
                made = await synthesize(
                    llm, graph, seeds, size, shares, prepared, seed=seed, query_styles=style_shares,
                    query_lengths=length_shares, max_attempts=max_attempts,
                    concurrency=concurrency, journal=journal_path, run=identity, on_record=advance,
                )
                records, shortfall, rejected = made.records, made.shortfall, made.rejected
                used_personas = made.personas
            elif llm is None:
                with warnings.catch_warnings():  # reported once, below, for both paths
                    warnings.simplefilter("ignore", ShortfallWarning)
                    offline = generate_offline(graph, size, distribution=shares, seed=seed,
                                               fill_short_types=not exact_mix)
                records, shortfall = list(offline.records), dict(offline.shortfall)
                filled = dict(offline.filled)
                filter_rejections = offline.rejected
                advance(len(records))
            else:
                seeds = [c for c in chunks if c.tokens >= MIN_SEED_TOKENS] or list(chunks)
                written = await generate_with_llm(
                    llm, seeds, seed_pairs(graph), size, shares, seed=seed,
                    summaries=node_summaries, max_attempts=max_attempts,
                    concurrency=concurrency, journal=journal_path, run=identity, on_record=advance,
                )
                records, shortfall, rejected = written.records, written.shortfall, written.rejected
    finally:
        close = getattr(the_judge, "aclose", None)
        if close is not None:
            await close()

    reasons = [r for rej in rejected for r in rej.reasons]
    if llm is not None and not records and (failed := nothing_but_the_judge(llm, reasons)) is not None:
        raise JudgeFailedThroughout(failed)  # an empty file would blame the documents
    shortfall = {k: v for k, v in shortfall.items() if v}
    testset = Testset(records=records, settings={**settings, "documents": len(documents),
                                                 "chunks": len(chunks), "run": identity})
    result = GenerationResult(testset=testset, graph=graph, skipped=skipped, requested=requested,
                              shortfall=shortfall, rejected=rejected,
                              usage=llm.usage if llm is not None else None, journal=journal_path,
                              filter_rejections=filter_rejections, personas=used_personas,
                              judge_faults=faults(llm, reasons), filled=filled,
                              judge_calls=llm.calls if llm is not None else 0)
    if not _caller_warns.get() and (message := shortfall_message(result)) is not None:
        warnings.warn(message, ShortfallWarning, stacklevel=2)  # the line that awaited agenerate
    return result


_caller_warns: ContextVar[bool] = ContextVar("testset_gen_caller_warns", default=False)
"""Set by ``generate`` inside the one run it hands to the shared loop: that run's shortfall
is warned about by ``generate`` itself, in the caller's thread, so that the warning's file
and line are the caller's. Issued on the loop's thread, it pointed into ragmeter's loop
(``warnings.warn`` can only name frames of the thread it runs on)."""


def unsupported_note(paths: Sequence[str]) -> str:
    """The note after "no readable documents": how many files of which type no reader handles
    ("12 files ...: .rst 10, .png 2; read: .docx, .htm, ..."). A folder of an unread format
    must say so; "no readable documents" alone sent the user looking for a broken file."""
    if not paths:
        return ""
    kinds = Counter(Path(p).suffix.lower() or "(no extension)" for p in paths)
    return (f" ({len(paths)} file{'s' if len(paths) != 1 else ''} of a type no reader handles: "
            + ", ".join(f"{k} {n}" for k, n in kinds.most_common())
            + f"; read: {', '.join(sorted(FORMATS))})")


def shortfall_message(result: GenerationResult) -> str | None:
    """The ``ShortfallWarning`` text for ``result``, or None when every question was written."""
    if not result.shortfall:
        return None
    text = ", ".join(f"{k}: {v} of {result.requested.get(k, 0)}" for k, v in result.shortfall.items())
    if result.judge_faults:
        hint = judge_blame(result) + "; see GenerationResult.rejected for each draft"
    elif result.usage is None:
        hint = "the offline generator's rules found too few; an LLM judge writes the kinds they cannot"
        if result.filled:
            hint += "; written in their place: " + ", ".join(f"{n} more {k}" for k, n in result.filled.items())
    else:
        hint = "see GenerationResult.rejected for why"
    return f"testset_gen: fewer questions than asked for ({text} missing); {hint}"


def judge_blame(result: GenerationResult) -> str:
    """What the judge's failures cost, by kind: the part of a shortfall owed to the model
    (``"the judge failed or answered unusably 14 times: malformed output 6, refusal 3, ..."``)."""
    total = sum(result.judge_faults.values())
    kinds = ", ".join(f"{k} {n}" for k, n in result.judge_faults.items())
    return (f"the judge failed or answered unusably {total} times ({kinds}; "
            f"{result.judge_calls} calls made)")


def generate(source: Any, size: int, **options: Any) -> GenerationResult:
    """Generate a test set of ``size`` questions from ``source``.

    ``source``: a folder (read recursively: Markdown, text, HTML, PDF, DOCX), a file, a list
    of LangChain ``Document``s or of LlamaIndex nodes. ``judge``: ``"local"`` (offline
    generator), or an LLM judge spec (``"openai:gpt-4o-mini"``, ``"ollama:llama3.1"``, any
    OpenAI-compatible URL; ``"local+..."`` uses its LLM). ``distribution``: shares of
    ``simple``, ``reasoning``, ``multi_context``, ``conditional`` (default 0.5 / 0.25 /
    0.25 / 0), as a mapping or ``"simple=0.5,reasoning=0.25,multi_context=0.25"``.
    ``seed``: which chunks seed which question. ``exact_mix``: offline, keep the shares and
    write fewer records when a type falls short (by default the other types write what their
    pools still hold in its place; ``GenerationResult.filled`` says how many).

    The synthesizer path (an LLM judge; used when any of these four is given): the graph
    is enriched by the LLM (headline, summary, themes, entities per chunk) and records are
    written for personas in query styles and lengths. ``synthesizers``: shares of
    ``single_hop_specific``, ``multi_hop_specific``, ``multi_hop_abstract`` (default 0.5 /
    0.25 / 0.25; replaces ``distribution``). ``personas``: a JSON/JSONL file or a list of
    ``{"name", "role_description"}``, or how many to derive from the corpus (default 3).
    ``query_styles``: shares of ``web_search``, ``conversational``, ``misspelled``,
    ``formal``; ``query_lengths``: of ``short``, ``medium``, ``long`` (default: equal).
    ``embedder``: an embedder (or spec such as ``"local"``) that links chunks whose
    summaries are similar and spreads the persona call's summaries apart. Each record's
    metadata names its synthesizer, persona, query_style, query_length, chunk_ids and
    document_ids. See ``agenerate`` for the rest.
    """
    async def run() -> GenerationResult:
        _caller_warns.set(True)  # this run's task only (a task has its own context)
        return await agenerate(source, size, **options)

    # the process's one long-lived loop, as evaluate and run_app use: a LangChain judge whose
    # client is cached per process would find a loop of asyncio.run's already closed
    result = run_sync(run)
    if (message := shortfall_message(result)) is not None:
        warnings.warn(message, ShortfallWarning, stacklevel=2)  # the caller's line, not the loop's
    return result
