"""The cascade: the local judge decides what it is sure of, an LLM judge the rest.

``judge="local+openai:gpt-4o-mini"``: every judgement is first made locally; a verdict whose
local probability of "yes" falls inside ``band`` (default 0.25 to 0.75) is uncertain and
goes to the LLM judge, together with the other uncertain verdicts of the same sample and
phase, in one call. A judgement with no local signal at all (harmfulness, custom criteria)
goes to the LLM whole. When nothing is uncertain no call is made: ``usage`` reports the
verdicts decided locally, those escalated, and the calls saved.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from ragmeter.calls.usage import Usage
from ragmeter.judges.local import LocalJudge
from ragmeter.judges.protocol import Judge, Prompt

T = TypeVar("T", bound=BaseModel)

DEFAULT_BAND = (0.25, 0.75)


class CascadeJudge:
    def __init__(self, local: LocalJudge, llm: Judge, band: tuple[float, float] = DEFAULT_BAND) -> None:
        low, high = (float(b) for b in band)
        if not 0.0 <= low <= high <= 1.0:
            raise ValueError(f"band must be two probabilities low <= high, not {band!r}")
        self.local = local
        self.llm = llm
        self.band = (low, high)
        self.counts = Usage()  # local / escalated / saved
        suffix = "" if self.band == DEFAULT_BAND else f"[band={low:g}-{high:g}]"
        self.name = f"{local.name}+{llm.name}{suffix}"

    def uncertain(self, probability: float) -> bool:
        low, high = self.band
        return low < probability < high

    @property
    def usage(self) -> Usage:  # type: ignore[override]
        return self.llm.usage.merged(self.counts)

    async def generate(self, prompt: Prompt, output_type: type[T], *, temperature: float | None = None) -> T:
        """Free-form prompts (e.g. translating the few-shot examples) go to the LLM judge."""
        return await self.llm.generate(prompt, output_type, temperature=temperature)

    async def aclose(self) -> None:
        close = getattr(self.llm, "aclose", None)
        if close is not None:
            await close()

    def __repr__(self) -> str:
        return f"CascadeJudge({self.local!r}, {self.llm!r}, band={self.band})"
