"""How ragmeter calls a remote model: the one place each call setting and its default is
written.

``LLMCallOptions`` travels unopened from where the user sets it (``--timeout`` in the CLI's
shared option group, ``judge_options={"timeout": 30}``, an adapter's ``judge_from``) to the
judge and embedder that read it: ``retry_policy()`` bounds every attempt of every call
(``ragmeter.calls.retry``), the rest configures the LLM judge.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from ragmeter.calls.retry import RetryPolicy
from ragmeter.calls.usage import Prices
from ragmeter.errors import InvalidOption


@dataclass(frozen=True)
class LLMCallOptions:
    """``timeout``: seconds per call attempt (a hung request is abandoned and tried again);
    ``max_attempts``: attempts per call, the first included; ``max_concurrency``: calls in
    flight (halves on 429, grows back); ``prices``: USD per million prompt / completion tokens
    by model; ``structured``: "auto", "json_schema", "json_object" or "prompt"; ``temperature``
    (0 so that reruns agree; None keeps the model's own); ``max_tokens``; ``seed``;
    ``layout``: "bundled" (a phase's tasks in one call) or "per_task". ``timeout`` and
    ``max_attempts`` bound a remote embedder's calls too."""

    timeout: float = 60.0
    max_attempts: int = 5
    max_concurrency: int = 16
    prices: Prices | dict[str, tuple[float, float]] | None = None
    structured: str = "auto"
    temperature: float | None = 0.0
    max_tokens: int | None = None
    seed: int | None = None
    layout: str = "bundled"

    def retry_policy(self) -> RetryPolicy:
        return RetryPolicy(max_attempts=self.max_attempts, timeout=self.timeout)

    def price_table(self) -> Prices | None:
        if self.prices is None or isinstance(self.prices, Prices):
            return self.prices
        return Prices(self.prices)

    def changed(self) -> list[str]:
        """The settings that differ from their defaults (what a user set)."""
        return changed_fields(self)


def changed_fields(options: Any) -> list[str]:
    """The fields of the dataclass ``options`` whose values differ from their defaults."""
    default = type(options)()
    return [f.name for f in fields(options) if getattr(options, f.name) != getattr(default, f.name)]


def options_of(cls: type, value: Any, what: str) -> Any:
    """``value`` as a ``cls`` option group: None the defaults, an instance itself, a mapping
    some of its fields (an unknown name is an ``InvalidOption``)."""
    if value is None:
        return cls()
    if isinstance(value, cls):
        return value
    if not isinstance(value, Mapping):
        raise InvalidOption(f"{what} are a {cls.__name__} or a mapping of its fields, not {type(value).__name__}")
    known = {f.name for f in fields(cls)}
    unknown = sorted(set(value) - known)
    if unknown:
        raise InvalidOption(f"unknown {what} {unknown}; known: {sorted(known)}")
    return replace(cls(), **dict(value))


DEFAULT_CALLS = LLMCallOptions()
