"""Judges that answer the facts layer's tasks by prompting a language model.

``PromptingJudge`` gives any class with a ``generate`` method the rest of the ``Judge``
seam: a phase's tasks go out bundled in one call (``bundle.ask_all``: the texts are sent
once and the call count drops to one per phase), votes are separate sampled calls. The LLM
judge is one; a user's own judge that only has ``generate`` becomes one through
``FreeFormAdapter``.
"""

from __future__ import annotations

from typing import Any, Sequence, TypeVar

from pydantic import BaseModel

from ragmeter.calls.usage import Usage
from ragmeter.judgements.tasks import Outcome, Sections, Task
from ragmeter.judges.bundle import ask_all, ask_votes
from ragmeter.judges.protocol import DryRun, FreeFormJudge, Prompt
from ragmeter.prompts.template import PromptSet
from ragmeter.errors import InvalidOption

T = TypeVar("T", bound=BaseModel)

PROMPTING_CONCURRENCY = 16
"""Samples in flight with an LLM judge: enough to hide latency, few enough for rate limits."""
LAYOUTS = ("bundled", "per_task")
"""How a phase's tasks are asked: in one call (``bundled``), or one call per kind of
judgement (``per_task``, as most peers do; ``ragmeter align --layout both`` compares them)."""


class PromptingJudge:
    """The ``Judge`` seam over ``self.generate``; subclasses provide ``generate``, ``name`` and
    ``usage``, and override ``dry_run`` when they can estimate without sending."""

    name: str
    concurrency: int = PROMPTING_CONCURRENCY
    generative: bool = True
    layout: str = "bundled"

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T:
        raise NotImplementedError

    async def solve(self, tasks: Sequence[Task], sections: Sections, prompts: PromptSet) -> dict[str, Outcome]:
        return await ask_all(self, tasks, sections, prompts, per_task=self.layout == "per_task")

    async def vote(
        self, task: Task, sections: Sections, prompts: PromptSet, votes: int, temperature: float
    ) -> list[BaseModel]:
        return await ask_votes(self, task, sections, prompts, votes, temperature)

    def dry_run(self) -> DryRun:
        raise InvalidOption(
            f"a dry run needs an OpenAI-compatible judge (openai:, azure:, ollama:, local+...), not {self.name!r}"
        )

    async def aclose(self) -> None:
        return None


class FreeFormAdapter(PromptingJudge):
    """A user's object with only ``generate`` (and perhaps ``name``, ``usage``, ``aclose``),
    as a full ``Judge``."""

    def __init__(self, inner: FreeFormJudge) -> None:
        self.inner = inner
        self.name = str(getattr(inner, "name", type(inner).__name__))
        own = getattr(inner, "usage", None)
        self._usage = own if isinstance(own, Usage) else Usage()

    @property
    def usage(self) -> Usage:
        return self._usage

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T:
        return await self.inner.generate(prompt, output_type, temperature=temperature)

    async def aclose(self) -> None:
        close: Any = getattr(self.inner, "aclose", None)
        if close is not None:
            await close()

    def __repr__(self) -> str:
        return f"FreeFormAdapter({self.inner!r})"
