"""Per-sample facts, computed once and shared by every metric that needs them.

The engine tells the store, before scoring, which judgements the run's metrics need for
this sample (the plan). The first metric to ask for any judgement of a phase hands every
planned judgement of that phase to the judge at once (``Judge.solve``: one call for an LLM
judge, one batch for the local judge); the others await the same answer.
Phase 1 reads the texts (claims, questions, entities, context verdicts, critiques); phase 2
verifies the claims phase 1 extracted. Judgements asked for without being planned, and
judgements that vote, get calls of their own.

Concurrent askers await the same task, and a cancelled asker does not cancel it.
"""

from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable, Iterable, Sequence, TypeVar

import numpy as np
from pydantic import BaseModel

from ragmeter.data import Sample
from ragmeter.embedders.protocol import Embedder
from ragmeter.errors import JudgeUnavailable
from ragmeter.judgements import needs as N
from ragmeter.judgements.needs import DEPENDS_ON, Need
from ragmeter.judgements.outputs import Verdict
from ragmeter.judgements.sentences import split_sentences
from ragmeter.judgements.task_prompts import DEFAULT_PROMPTS
from ragmeter.judgements.tasks import TASK_KINDS, Sections, Task, as_result, empty_output, make_task
from ragmeter.judges.protocol import Judge
from ragmeter.prompts.template import PromptSet

T = TypeVar("T")

VOTE_TEMPERATURE = 0.7
"""Sampling temperature for independent votes (strictness > 1): at 0 every vote would agree."""


class SampleFacts:
    def __init__(
        self,
        sample: Sample,
        judge: Judge | None,
        embedder: Embedder | None,
        *,
        plan: Iterable[Need] = (),
        prompts: PromptSet | None = None,
        vote_temperature: float = VOTE_TEMPERATURE,
    ) -> None:
        self.sample = sample
        self._judge = judge
        self._embedder = embedder
        self.prompts = prompts or DEFAULT_PROMPTS
        self.vote_temperature = vote_temperature
        self._memo: dict[Any, asyncio.Future[Any]] = {}
        self.plan: set[Need] = set()
        self._turns: dict[int, SampleFacts] = {}
        for need in plan:
            self.add(need)

    def add(self, need: Need) -> None:
        """Plan ``need`` (and the claims it verifies) for this sample."""
        self.plan.add(need)
        if need.prompt in DEPENDS_ON:
            self.plan.add(DEPENDS_ON[need.prompt])

    async def _once(self, key: Any, compute: Callable[[], Awaitable[T]]) -> T:
        future = self._memo.get(key)
        if future is None:
            future = asyncio.ensure_future(compute())
            self._memo[key] = future
        # shield: one asker being cancelled must not cancel the shared computation
        return await asyncio.shield(future)

    # --- the models -----------------------------------------------------------------------

    def judge(self, what: str) -> Judge:
        """The run's judge; a typed error when there is none."""
        if self._judge is None:
            raise JudgeUnavailable(f"{what} needs a judge and none is configured")
        return self._judge

    def embedder(self, what: str) -> Embedder:
        if self._embedder is None:
            raise JudgeUnavailable(f"{what} needs an embedder and none is configured")
        return self._embedder

    # --- judgements -----------------------------------------------------------------------

    async def get(self, need: Need) -> Any:
        """The judge's answer for ``need`` (a list of answers when it votes)."""
        if need.votes > 1:
            return await self._once(("votes", need), lambda: self._votes(need))
        phase = 2 if need.prompt in DEPENDS_ON else 1
        key = ("phase", phase)
        if key not in self._memo:
            self.add(need)  # an unplanned need joins its phase's call if that has not started
        planned = sorted(
            (n for n in self.plan if n.votes == 1 and (2 if n.prompt in DEPENDS_ON else 1) == phase
             and TASK_KINDS[n.prompt].scope == self.sample.judged_as),
            key=lambda n: n.key,
        )
        outcomes = await self._once(key, lambda: self._phase(planned))
        if need.key not in outcomes:  # asked for after its phase's call: a call of its own
            outcomes = await self._once(("alone", need), lambda: self._phase([need]))
        return as_result(outcomes[need.key])

    def turn(self, number: int, sample: Sample) -> "SampleFacts":
        """The facts of one turn of a conversation (``sample`` is that turn as a single-turn
        sample), shared by every per-turn metric: planned with the single-turn judgements the
        run's metrics need, so each turn's phase is one call whichever metric asks first."""
        child = self._turns.get(number)
        if child is None:
            turn_plan = [n for n in self.plan if TASK_KINDS[n.prompt].scope == sample.judged_as]
            child = SampleFacts(sample, self._judge, self._embedder, plan=turn_plan, prompts=self.prompts,
                                vote_temperature=self.vote_temperature)
            self._turns[number] = child
        return child

    async def _phase(self, needs: Sequence[Need]) -> dict[str, Any]:
        judge = self.judge(needs[0].prompt.replace("_", " ") if len(needs) == 1 else "judging this sample")
        sections, failed = await self._sections(needs)
        tasks: list[Task] = []
        outcomes: dict[str, Any] = {}
        for need in needs:
            # a verification whose claims could not be extracted reports that error; the
            # others (e.g. the ground truth's claims, when only the answer's failed) go on
            broken = [failed[name] for name in TASK_KINDS[need.prompt].sections if name in failed]
            task = None if broken else make_task(need, sections)
            if broken:
                outcomes[need.key] = broken[0]
            elif task is None:
                outcomes[need.key] = empty_output(need)
            else:
                tasks.append(task)
        outcomes.update(await self._solve(judge, tasks, sections))
        return outcomes

    async def _solve(self, judge: Judge, tasks: Sequence[Task], sections: Sections) -> dict[str, Any]:
        if not tasks:
            return {}
        return await judge.solve(tasks, sections, self.prompts)

    async def _votes(self, need: Need) -> list[BaseModel]:
        judge = self.judge(need.prompt.replace("_", " "))
        sections, failed = await self._sections([need])
        if failed:
            raise next(iter(failed.values()))
        task = make_task(need, sections)
        if task is None:
            return [empty_output(need)] * need.votes
        return await judge.vote(task, sections, self.prompts, need.votes, self.vote_temperature)

    async def _sections(self, needs: Sequence[Need]) -> tuple[Sections, dict[str, Exception]]:
        """The texts the tasks read (claims only when a task verifies them), and the claim
        sections that could not be had, with the error that stopped each."""
        s = self.sample
        sections: Sections = {
            "question": s.question or "",
            "answer": s.answer or "",
            "ground_truth": s.ground_truth or "",
            "context": list(s.contexts or []),
            **s.judged_texts(),
        }
        failed: dict[str, Exception] = {}
        wanted = {name for need in needs for name in TASK_KINDS[need.prompt].sections}
        if "sentence" in wanted:
            sections["sentence"] = self.context_sentences()
        for name, claims in (("answer_claim", self.answer_claims), ("ground_truth_claim", self.ground_truth_claims)):
            if name in wanted:
                try:
                    sections[name] = await claims()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    failed[name] = exc
        return sections, failed

    # --- facts by name --------------------------------------------------------------------

    async def answer_claims(self) -> list[str]:
        return _clean((await self.get(N.ANSWER_CLAIMS)).claims)

    async def ground_truth_claims(self) -> list[str]:
        return _clean((await self.get(N.GROUND_TRUTH_CLAIMS)).claims)

    async def _paired(self, claims: list[str], need: Need) -> list[tuple[str, Verdict]]:
        if not claims:
            return []
        return list(zip(claims, (await self.get(need)).verdicts))

    async def answer_support(self) -> list[tuple[str, Verdict]]:
        """Each claim of the answer with its verdict against the retrieved contexts."""
        return await self._paired(await self.answer_claims(), N.ANSWER_SUPPORT)

    async def ground_truth_support(self) -> list[tuple[str, Verdict]]:
        """Each claim of the ground truth: can it be attributed to the retrieved contexts?"""
        return await self._paired(await self.ground_truth_claims(), N.GROUND_TRUTH_SUPPORT)

    async def answer_in_ground_truth(self) -> list[tuple[str, Verdict]]:
        """Each claim of the answer: does the ground truth support it?"""
        return await self._paired(await self.answer_claims(), N.ANSWER_IN_GROUND_TRUTH)

    async def ground_truth_in_answer(self) -> list[tuple[str, Verdict]]:
        """Each claim of the ground truth: does the answer state it?"""
        return await self._paired(await self.ground_truth_claims(), N.GROUND_TRUTH_IN_ANSWER)

    def context_sentences(self) -> list[str]:
        return [sentence for chunk in self.sample.contexts or [] for sentence in split_sentences(chunk)]

    async def embeddings(self, texts: Sequence[str]) -> np.ndarray:
        embedder = self.embedder("embedding")
        key = ("embeddings", tuple(texts))
        return await self._once(key, lambda: embedder.embed(list(texts)))


def _clean(claims: Sequence[str]) -> list[str]:
    return [c.strip() for c in claims if c and c.strip()]
