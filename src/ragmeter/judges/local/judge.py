"""The local judge: judgements from small models that ship on PyPI, with no key and no network.

It does not answer free-form prompts (no small model on PyPI can judge reliably: SmolLM2
135M and Gemma 3 270M answered "yes" to every premise/claim pair of a 20-item entailment
check). Instead it answers the facts layer's tasks (claims of a text, support of a claim by
passages, relevance of a chunk, entities, coverage of the question, a few critiques) with
the models it holds (``LocalModels``): spaCy for sentences, clauses and entities, MiniLM
for similarity, and a claim verifier (``ragmeter.judges.local.verifier``: our alignment verifier
by default, or any Hugging Face NLI cross-encoder by name or path). A judgement with no
local signal (harmfulness, a custom criterion) is a ``NeedsLLMJudge`` error rather than an
invented score.

Every local verdict carries a probability (``solve_with_probabilities``); the cascade
sends the uncertain ones to an LLM judge.
"""

from __future__ import annotations

from typing import Any, Sequence, TypeVar

from pydantic import BaseModel

from ragmeter.calls.usage import Usage
from ragmeter.errors import NeedsLLMJudge
from ragmeter.judgements.tasks import Outcome, Sections, Task, as_result
from ragmeter.judges.local.families import from_environment
from ragmeter.judges.local.solver import LocalModels, LocalSolver, Solved
from ragmeter.judges.local.verifier_spec import parse_verifier_spec
from ragmeter.judges.protocol import DryRun, Prompt
from ragmeter.prompts.template import PromptSet

T = TypeVar("T", bound=BaseModel)

LOCAL_CONCURRENCY = 64
"""Samples in flight with the local judge alone: they cost nothing but memory, and the more
there are, the larger the batches its models run on (19 samples/s at 16, 21.5 at 32 and 64,
bench/bench_local.py)."""


class LocalJudge:
    """``LocalJudge(verifier="alignment" | "nli:NAME_OR_PATH[?OPTION=VALUE&...]", threads=None)``.

    The verifier spec is checked here (``verifier_spec.parse_verifier_spec``, no model
    loaded): a typo in an option is one ``InvalidVerifierSpec`` before the run, not an
    error on every sample.

    The models load on first use and are shared by every sample of a run; ``threads`` caps
    torch's CPU threads (on a busy machine 1 can beat 2: 200 sentences/s against 60-100).
    """

    concurrency = LOCAL_CONCURRENCY
    generative = False

    def __init__(self, verifier: str = "alignment", threads: int | None = None) -> None:
        parse_verifier_spec(verifier)
        from_environment()  # RAGMETER_LOCAL_OFF: rule families switched off (families.py)
        self.verifier_spec = verifier
        self.threads = threads
        self.name = "local" if verifier == "alignment" else f"local[{verifier}]"
        self.usage = Usage()
        self.models = LocalModels(verifier, threads)
        self.solver = LocalSolver(self.models)

    def model(self, kind: str) -> Any:
        """The loaded model of ``kind`` ("encoder", "verifier", "relevance", "chunk_relevance"), built once."""
        return self.models.model(kind)

    async def solve_with_probabilities(self, tasks: Sequence[Task], sections: Sections) -> Solved:
        """Each task's outcome, and the probability of yes behind each yes/no verdict."""
        return await self.solver.solve(tasks, sections)

    async def solve(self, tasks: Sequence[Task], sections: Sections, prompts: PromptSet) -> dict[str, Outcome]:
        if not tasks:
            return {}
        return (await self.solver.solve(tasks, sections)).outcomes

    async def vote(
        self, task: Task, sections: Sections, prompts: PromptSet, votes: int, temperature: float
    ) -> list[BaseModel]:
        # deterministic: n votes would be n copies of one answer, so it answers once
        outcome = (await self.solver.solve([task], sections)).outcomes[task.key]
        return [as_result(outcome)] * votes

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T:
        raise NeedsLLMJudge(
            f"the local judge cannot answer a free-form {output_type.__name__} prompt; "
            "configure an LLM judge (e.g. --judge openai:gpt-4o-mini) for this"
        )

    def dry_run(self) -> DryRun:
        """Itself: it sends nothing and costs nothing."""
        return DryRun(self)

    async def aclose(self) -> None:
        return None

    def __repr__(self) -> str:
        return f"LocalJudge(verifier={self.verifier_spec!r})"
