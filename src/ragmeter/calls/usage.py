"""Accounting of calls, tokens, cache hits and cost.

Prices are per million tokens and settable, because providers change them and self-hosted
models cost nothing per token. Cache hits are counted apart, with the tokens they saved,
so a rerun shows what the cache was worth.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

# List prices in USD per million (prompt, completion) tokens, as published in 2025.
# Override with ``Prices({...})`` or ``--price MODEL=IN,OUT``; unknown models cost None.
DEFAULT_PRICES: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "text-embedding-3-small": (0.02, 0.0),
    "text-embedding-3-large": (0.13, 0.0),
}


class Prices:
    """Price table: model name -> (USD per 1M prompt tokens, USD per 1M completion tokens)."""

    def __init__(self, table: dict[str, tuple[float, float]] | None = None, defaults: bool = True):
        self.table = dict(DEFAULT_PRICES) if defaults else {}
        self.table.update(table or {})

    def cost(self, model: str, prompt_tokens: int, completion_tokens: int) -> float | None:
        price = self.table.get(model)
        if price is None:
            return None
        return (prompt_tokens * price[0] + completion_tokens * price[1]) / 1_000_000


class Usage(BaseModel):
    """Running totals for one judge or embedder. ``calls`` are requests actually sent."""

    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    repairs: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_prompt_tokens: int = Field(0, description="prompt tokens the cache saved")
    cached_completion_tokens: int = Field(0, description="completion tokens the cache saved")
    local_judgements: int = Field(0, description="verdicts the local judge decided (cascade: with no LLM call)")
    escalated_judgements: int = Field(0, description="cascade: uncertain verdicts sent to the LLM judge")
    calls_saved: int = Field(0, description="cascade: judge calls an LLM-only judge would have made and this one did not")
    cost: float | None = Field(None, description="USD; None when the model has no known price")

    @property
    def escalated_share(self) -> float | None:
        """Share of the cascade's verdicts that went to the LLM judge; None without a cascade."""
        total = self.local_judgements + self.escalated_judgements
        return self.escalated_judgements / total if total else None

    def add_cost(self, cost: float | None) -> None:
        if cost is not None:
            self.cost = (self.cost or 0.0) + cost

    @classmethod
    def counters(cls) -> list[str]:
        """The names of the whole-number counters (every field but ``cost``)."""
        return [name for name in cls.model_fields if name != "cost"]

    def merged(self, other: "Usage") -> "Usage":
        data = {name: getattr(self, name) + getattr(other, name) for name in self.counters()}
        costs = [c for c in (self.cost, other.cost) if c is not None]
        return Usage(**data, cost=sum(costs) if costs else None)

    def since(self, before: "Usage") -> "Usage":
        """What was spent between ``before`` (a copy taken earlier) and now, field by field;
        summing such deltas from several workers gives exact totals."""
        data = {name: getattr(self, name) - getattr(before, name) for name in self.counters()}
        return Usage(**data, cost=None if self.cost is None else self.cost - (before.cost or 0.0))
