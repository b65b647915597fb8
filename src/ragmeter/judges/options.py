"""The settings of a judge, as one typed object.

Every entry point that builds a judge (``evaluate``, ``estimate``, ``generate``, the CLI,
the Ray workers) passes the same ``JudgeOptions`` through, so a setting is named and
checked once. A plain mapping is accepted where a user gives options
(``judge_options={"timeout": 30}``) and turned into this object, with unknown names refused.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

from ragmeter.calls.usage import Prices

SURE = 0.95
"""The share right the cascade asks of the local verdicts it keeps by default."""

DEFAULT_BAND = (round(1.0 - SURE, 6), SURE)
"""The cascade's default range of uncertain local probabilities, on calibrated probabilities:
a verdict outside it is one that development data says is right at least ``SURE`` of the
time. Used when ``band`` is None, and then every verdict without a calibration (sentence
relevance, chunk usefulness, the local critiques) counts as uncertain as well."""


@dataclass(frozen=True)
class JudgeOptions:
    """How a judge calls its model.

    LLM judges: ``timeout`` (seconds per call), ``max_attempts`` (first try included),
    ``max_concurrency`` (calls in flight; halves on 429 and grows back), ``prices`` (USD per
    million prompt / completion tokens by model), ``structured`` ("auto", "json_schema",
    "json_object", "prompt"), ``temperature`` (0 so that reruns agree), ``max_tokens``,
    ``seed``. Local judge: ``verifier`` ("alignment", "lexical" or
    "nli:NAME_OR_PATH[?OPTION=VALUE&...]", see ``judges.local.verifier_spec``), ``threads``
    (torch CPU threads). Cascade: ``band``, the local probabilities counted as uncertain
    (None: calibrated probabilities inside ``DEFAULT_BAND`` and every verdict without a
    calibration; a (low, high) pair: every probability strictly inside it, calibrated or not).
    ``layout``: "bundled" (a phase's tasks in one call) or "per_task" (one call per kind of
    judgement); LLM judges only.
    """

    timeout: float = 60.0
    max_attempts: int = 5
    max_concurrency: int = 16
    prices: Prices | dict[str, tuple[float, float]] | None = None
    structured: str = "auto"
    temperature: float = 0.0
    max_tokens: int | None = None
    seed: int | None = None
    verifier: str = "alignment"
    band: tuple[float, float] | None = None
    threads: int | None = None
    layout: str = "bundled"

    @classmethod
    def of(cls, value: "JudgeOptions | Mapping[str, Any] | None") -> "JudgeOptions":
        """``value`` as options: None gives the defaults, a mapping names some of them."""
        if value is None:
            return cls()
        if isinstance(value, JudgeOptions):
            return value
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(value) - known)
        if unknown:
            raise ValueError(f"unknown judge option(s) {unknown}; known: {sorted(known)}")
        return cls(**dict(value))

    def price_table(self) -> Prices | None:
        if self.prices is None or isinstance(self.prices, Prices):
            return self.prices
        return Prices(self.prices)

    def as_dict(self) -> dict[str, Any]:
        """Plain values (for a Ray worker, which rebuilds the judge from them)."""
        return asdict(self)
