"""The one interface every judge backend implements.

A judge takes a prompt and a pydantic output type and returns a validated instance of that
type, or raises a typed ``JudgeError``. Everything else (cache, retries, timeouts, rate
limits, repair, accounting) happens behind this call, the same way for every backend.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, TypeVar, Union, runtime_checkable

from pydantic import BaseModel

from ragmeter.calls.usage import Usage
from ragmeter.errors import JudgeRequestRejected

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
class Judge(Protocol):
    """prompt + output type -> validated object.

    ``temperature`` overrides the judge's own for one call (independent votes sample at a
    temperature above 0); None keeps the judge's setting."""

    name: str
    usage: Usage

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T: ...


# --- the contract between LLMJudge and a chat backend -------------------------------------

@dataclass(frozen=True)
class ChatRequest:
    messages: list[Message]
    params: dict[str, Any] = field(default_factory=dict)
    response_format: dict[str, Any] | None = None


@dataclass(frozen=True)
class ChatCompletion:
    content: str
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int


class StructuredOutputUnsupported(JudgeRequestRejected):
    """The server rejected ``response_format``; the judge falls back to a weaker mode."""


class ChatBackend(Protocol):
    """Sends exactly one request. Raises ``TransientCallError`` for what a retry may fix,
    ``StructuredOutputUnsupported`` when the server rejects ``response_format``, and a typed
    ``JudgeError`` for the rest. ``identity`` names endpoint and model, never a secret."""

    identity: str
    model: str

    async def complete(self, request: ChatRequest) -> ChatCompletion: ...
