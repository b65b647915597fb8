"""``estimate``: what a run would cost (calls, tokens, money) without calling any judge.

It runs the real engine over the real samples with the same metrics, but with the judge
swapped for its dry-run twin (``Judge.dry_run``: for an LLM judge the same prompts, bundling
and cache keys over a backend that sends nothing) and the embedder for a counter. So the estimate follows every rule the run follows: one call
per phase per sample, votes, verifications that only happen when there are claims, and the
disk cache (a request already answered there costs nothing). What it estimates rather than
counts: the tokens of each prompt and reply, and how many claims a model will extract.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
from pydantic import BaseModel, Field

from ragmeter.calls.cache import CacheSetting, open_cache
from ragmeter.calls.tokens import estimate_tokens
from ragmeter.calls.usage import Prices, Usage
from ragmeter.data import Sample
from ragmeter.data.stream import stream_samples
from ragmeter.embedders.protocol import Embedder
from ragmeter.engine.core import build_judge
from ragmeter.engine.evaluate import DEFAULT_METRICS, aevaluate
from ragmeter.runtime.loop import run_sync
from ragmeter.judges.options import JudgeOptions
from ragmeter.judges.protocol import Judge
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.prompts.template import PromptSet, TaskPrompt


class RunEstimate(BaseModel):
    """What ``evaluate`` with the same arguments would spend."""

    samples: int
    input_errors: int = 0
    metrics: list[str]
    judge: str | None = None
    embedder: str | None = None
    calls: int = Field(0, description="LLM judge calls that would be sent")
    cache_hits: int = Field(0, description="judge calls the disk cache would answer")
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float | None = Field(None, description="USD at the configured prices; None when the model has none")
    embedding_texts: int = Field(0, description="texts a remote embedder would be sent")
    embedding_tokens: int = 0
    embedding_cost: float | None = None
    notes: list[str] = Field(default_factory=list)

    @property
    def total_cost(self) -> float | None:
        costs = [c for c in (self.cost, self.embedding_cost) if c is not None]
        return sum(costs) if costs else None

    def to_text(self) -> str:
        lines = [f"dry run: {self.samples} samples x {len(self.metrics)} metrics ({', '.join(self.metrics)})"]
        if self.input_errors:
            lines.append(f"  {self.input_errors} row(s) could not be read and would be skipped")
        if self.judge:
            per = f" ({self.calls / self.samples:.2f} per sample)" if self.samples else ""
            lines.append(f"  judge {self.judge}: {self.calls} calls{per}, {self.cache_hits} answered by the cache")
            lines.append(f"    ~{self.prompt_tokens:,} prompt + ~{self.completion_tokens:,} completion tokens")
            lines.append("    cost: " + (f"~${self.cost:.4f}" if self.cost is not None else
                                         "no price known for this model (set one with --price MODEL=IN,OUT)"))
        if self.embedder and self.embedding_texts:
            lines.append(f"  embedder {self.embedder}: {self.embedding_texts} texts, ~{self.embedding_tokens:,} tokens"
                         + (f", ~${self.embedding_cost:.4f}" if self.embedding_cost is not None else ""))
        lines += [f"  note: {n}" for n in self.notes]
        return "\n".join(lines)


class CountingEmbedder:
    """Stands in for the embedder: counts the texts and tokens it would be sent and returns
    pseudo-random unit vectors (the scores they give are thrown away)."""

    def __init__(self, name: str, model: str | None, prices: Prices | None, remote: bool) -> None:
        self.name = name
        self.model = model
        self.prices = prices or Prices()
        self.remote = remote
        self.usage = Usage()
        self.texts = 0
        self.tokens = 0

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        if self.remote:
            self.texts += len(texts)
            self.tokens += sum(estimate_tokens(t) for t in texts)
        out = np.empty((len(texts), 16), dtype=np.float32)
        for i, t in enumerate(texts):
            seed = int.from_bytes(hashlib.blake2b(t.encode(), digest_size=4).digest(), "little")
            v = np.random.default_rng(seed).standard_normal(16)
            out[i] = v / np.linalg.norm(v)
        return out

    def cost(self) -> float | None:
        return self.prices.cost(self.model, self.tokens, 0) if self.remote and self.model else None


async def aestimate(
    data: Any,
    metrics: Sequence[Metric | str] | None = None,
    *,
    judge: Judge | str | None = "local",
    embedder: Embedder | str | None = "local",
    cache: CacheSetting = True,
    judge_options: JudgeOptions | Mapping[str, Any] | None = None,
    prompts: PromptSet | Mapping[str, TaskPrompt | str] | None = None,
    language: str | None = None,
    concurrency: int | None = None,
    show_progress: bool = True,
) -> RunEstimate:
    """Estimate ``evaluate(data, metrics, judge=..., ...)`` without calling any judge."""
    from ragmeter.embedders.openai_embedder import OpenAIEmbedder
    from ragmeter.embedders.spec import get_embedder

    chosen = [get_metric(m) for m in (metrics or DEFAULT_METRICS)]
    names = [m.name for m in chosen]
    disk = open_cache(cache)
    options = JudgeOptions.of(judge_options)
    notes: list[str] = []
    the_judge: Judge | None = None
    if any(m.uses_judge for m in chosen):
        twin = build_judge(judge, disk, options).dry_run()
        the_judge = twin.judge
        notes += twin.notes
    counting = None
    if any(m.uses_embedder for m in chosen):
        remote = isinstance(embedder, str) and embedder.strip().startswith("openai:")
        if remote:
            real = get_embedder(embedder, cache=False)
            model = real.model if isinstance(real, OpenAIEmbedder) else None
            counting = CountingEmbedder(real.name, model, options.llm.price_table(), True)
            notes.append("embeddings: every text counted (the embedder's cache is not consulted)")
        else:
            name = embedder if isinstance(embedder, str) else getattr(embedder, "name", "embedder")
            counting = CountingEmbedder(str(name), None, None, False)

    if (the_judge is None or not the_judge.generative) and (counting is None or not counting.remote):
        # nothing to pay for: count the samples without running any model
        samples = errors = 0
        for _, item in stream_samples(data):
            if isinstance(item, Sample):
                samples += 1
            else:
                errors += 1
        if the_judge is not None:
            notes.append("the local judge makes no LLM calls and costs nothing")
        return RunEstimate(samples=samples, input_errors=errors, metrics=names,
                           judge=getattr(the_judge, "name", None), embedder=getattr(counting, "name", None),
                           notes=notes)
    if language:
        notes.append(f"--language {language}: the one-time translation of the few-shot examples is not counted")
    result = await aevaluate(
        data, chosen, judge=the_judge, embedder=counting, cache=False,  # no sinks: nothing is written
        show_progress=show_progress, judge_options=None, prompts=prompts, concurrency=concurrency,
    )
    usage = the_judge.usage if the_judge is not None else Usage()
    return RunEstimate(
        samples=result.sample_count,
        input_errors=len(result.input_errors),
        metrics=names,
        judge=getattr(the_judge, "name", None),
        embedder=getattr(counting, "name", None),
        calls=usage.calls,
        cache_hits=usage.cache_hits,
        prompt_tokens=usage.prompt_tokens,
        completion_tokens=usage.completion_tokens,
        cost=usage.cost,
        embedding_texts=counting.texts if counting else 0,
        embedding_tokens=counting.tokens if counting else 0,
        embedding_cost=counting.cost() if counting else None,
        notes=notes,
    )


def estimate(
    data: Any,
    metrics: Sequence[Metric | str] | None = None,
    *,
    judge: Judge | str | None = "local",
    embedder: Embedder | str | None = "local",
    cache: CacheSetting = True,
    judge_options: JudgeOptions | Mapping[str, Any] | None = None,
    prompts: PromptSet | Mapping[str, TaskPrompt | str] | None = None,
    language: str | None = None,
    concurrency: int | None = None,
    show_progress: bool = True,
) -> RunEstimate:
    """Synchronous ``aestimate`` (see there); works inside a running loop too."""
    return run_sync(lambda: aestimate(
        data, metrics, judge=judge, embedder=embedder, cache=cache, judge_options=judge_options,
        prompts=prompts, language=language, concurrency=concurrency, show_progress=show_progress,
    ))
