"""The local judge: judgements from small models that ship on PyPI, with no key and no network.

It does not answer free-form prompts (no small model on PyPI can judge reliably; see
LOCAL_MODELS.md). Instead, the facts layer asks it for specific judgements (sentences,
entities, support of a claim by passages...) through the models it holds. A judgement
with no local implementation raises ``NeedsLLMJudge`` rather than inventing a score.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from ragmeter.calls.usage import Usage
from ragmeter.errors import NeedsLLMJudge
from ragmeter.judges.protocol import Prompt

T = TypeVar("T", bound=BaseModel)


class LocalJudge:
    name = "local"

    def __init__(self) -> None:
        self.usage = Usage()

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T:
        raise NeedsLLMJudge(
            f"the local judge cannot answer a free-form {output_type.__name__} prompt; "
            "configure an LLM judge (e.g. --judge openai:gpt-4o-mini) for this metric"
        )

    def __repr__(self) -> str:
        return "LocalJudge()"
