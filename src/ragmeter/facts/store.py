"""Per-sample facts, computed once and shared by every metric that needs them.

Metrics never call the judge for something another metric of the same run already asked:
they ask this store, which runs each computation once (concurrent askers await the same
task) and hands every asker the same result, or the same error.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Sequence, TypeVar

import numpy as np

from ragmeter.data import Sample
from ragmeter.embedders.protocol import Embedder
from ragmeter.errors import JudgeUnavailable, NeedsLLMJudge
from ragmeter.facts.claims import extract_claims
from ragmeter.facts.support import SupportVerdict, judge_support
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.protocol import Judge

T = TypeVar("T")


class SampleFacts:
    def __init__(self, sample: Sample, judge: Judge | None, embedder: Embedder | None) -> None:
        self.sample = sample
        self._judge = judge
        self._embedder = embedder
        self._memo: dict[Any, asyncio.Future[Any]] = {}

    async def _once(self, key: Any, compute: Callable[[], Awaitable[T]]) -> T:
        future = self._memo.get(key)
        if future is None:
            future = asyncio.ensure_future(compute())
            self._memo[key] = future
        # shield: one asker being cancelled must not cancel the shared computation
        return await asyncio.shield(future)

    # --- the models -----------------------------------------------------------------------

    def llm_judge(self, what: str) -> Judge:
        """The judge for a judgement that needs an LLM; a typed error when there is none."""
        if self._judge is None:
            raise JudgeUnavailable(f"{what} needs a judge and none is configured")
        if isinstance(self._judge, LocalJudge):
            raise NeedsLLMJudge(
                f"{what} has no local implementation yet; use an LLM judge (--judge openai:MODEL)"
            )
        return self._judge

    def embedder(self, what: str) -> Embedder:
        if self._embedder is None:
            raise JudgeUnavailable(f"{what} needs an embedder and none is configured")
        return self._embedder

    # --- facts ----------------------------------------------------------------------------

    async def answer_claims(self) -> list[str]:
        sample = self.sample
        judge = self.llm_judge("claim extraction")
        return await self._once(
            ("claims", "answer"), lambda: extract_claims(judge, sample.answer or "", sample.question)
        )

    async def answer_support(self) -> list[tuple[str, SupportVerdict]]:
        """Each claim of the answer with its verdict against the retrieved contexts."""

        async def compute() -> list[tuple[str, SupportVerdict]]:
            claims = await self.answer_claims()
            judge = self.llm_judge("claim verification")
            verdicts = await judge_support(judge, claims, self.sample.contexts or [])
            return list(zip(claims, verdicts))

        return await self._once(("support", "answer", "contexts"), compute)

    async def embeddings(self, texts: Sequence[str]) -> np.ndarray:
        embedder = self.embedder("embedding")
        key = ("embeddings", tuple(texts))
        return await self._once(key, lambda: embedder.embed(list(texts)))
