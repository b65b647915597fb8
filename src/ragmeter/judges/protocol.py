"""The one interface every kind of judge implements (``Judge``), and the contract between
the LLM judge and a chat backend (``ChatBackend``).

Every judge answers the facts layer's tasks (``solve``, ``vote``); judges that hold a
language model also answer free-form prompts (``generate``: a prompt and a pydantic output
type in, a validated instance out, or a typed ``JudgeError``). For the LLM judge,
everything else (cache, retries, timeouts, rate limits, repair, accounting) happens behind
one ``ChatBackend.complete`` call, the same way for every backend.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, TypeVar, Union, runtime_checkable

from pydantic import BaseModel

from ragmeter.calls.usage import Usage
from ragmeter.errors import JudgeRequestRejected
from ragmeter.judgements.tasks import Outcome, Sections, Task
from ragmeter.prompts.template import PromptSet

T = TypeVar("T", bound=BaseModel)

Message = dict[str, str]
"""A chat message: ``{"role": "system" | "user" | "assistant", "content": "..."}``."""

Prompt = Union[str, Sequence[Message]]
"""A bare string is sent as one user message."""


def as_messages(prompt: Prompt) -> list[Message]:
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    return [dict(m) for m in prompt]


@runtime_checkable
class FreeFormJudge(Protocol):
    """Anything that answers a prompt with a validated instance of a pydantic type: what
    bundling, prompt translation and test-set writing need of a judge."""

    name: str

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T: ...


@runtime_checkable
class Judge(Protocol):
    """What the facts layer asks of every kind of judge, and all it asks.

    The facts layer plans a sample's judgements as ``Task``s (``ragmeter.judgements``) and
    hands each phase's tasks to ``solve``; how they are answered is the judge's own business:
    an LLM judge bundles them into one call, the local judge batches them across samples
    through its models, the cascade answers locally and sends only the uncertain verdicts
    on. A new kind of judge is one class that implements this.

    * ``name``: names the judge in results and cache keys (never a secret);
    * ``usage``: calls, tokens, cost and the judge's own counters so far;
    * ``concurrency``: the samples in flight that suit it when the user sets none;
    * ``generative``: whether ``generate`` answers free-form prompts (translating examples,
      writing test-set questions); False for a judge whose models only answer tasks;
    * ``solve``: an outcome (answer or typed error) for every task, keyed by ``Task.key``;
    * ``vote``: ``votes`` independent answers to one task (a critique with strictness);
    * ``dry_run``: a twin that sends nothing and counts what the run would cost;
    * ``aclose``: release connections while the run's event loop still exists.
    """

    name: str
    concurrency: int
    generative: bool

    @property
    def usage(self) -> Usage: ...

    async def solve(self, tasks: Sequence[Task], sections: Sections, prompts: PromptSet) -> dict[str, Outcome]: ...

    async def vote(
        self, task: Task, sections: Sections, prompts: PromptSet, votes: int, temperature: float
    ) -> list[BaseModel]: ...

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T: ...

    def dry_run(self) -> "DryRun": ...

    async def aclose(self) -> None: ...


@dataclass(frozen=True)
class DryRun:
    """A judge's dry-run twin and what the user should know about the estimate it gives."""

    judge: Judge
    notes: tuple[str, ...] = ()


# --- the contract between LLMJudge and a chat backend -------------------------------------

@dataclass(frozen=True)
class ChatRequest:
    """One request; ``output_type`` is the type the reply must validate against (a backend
    that sends the request ignores it; one that answers without a model needs it)."""

    messages: list[Message]
    params: dict[str, Any] = field(default_factory=dict)
    response_format: dict[str, Any] | None = None
    output_type: type[BaseModel] | None = None


@dataclass(frozen=True)
class ChatCompletion:
    content: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    logprobs: list[Any] | None = None  # per token [token, [[alternative, logprob], ...]], when asked for


class LogprobsUnsupported(JudgeRequestRejected):
    """The server rejected a request for log-probabilities; G-Eval falls back to the level."""


class StructuredOutputUnsupported(JudgeRequestRejected):
    """The server rejected ``response_format``; the judge falls back to a weaker mode."""


class ChatBackend(Protocol):
    """Sends exactly one request. Raises ``TransientCallError`` for what a retry may fix,
    ``StructuredOutputUnsupported`` when the server rejects ``response_format``, and a typed
    ``JudgeError`` for the rest. ``identity`` names endpoint and model, never a secret."""

    identity: str
    model: str

    async def complete(self, request: ChatRequest) -> ChatCompletion: ...
