"""Where a level's token sits in a judge's JSON reply, and how likely each level was there.

G-Eval weighs the level by the probability the model gave each level's token. The bundled
reply is one JSON object, so the level of the ``g_eval_tone`` task is the digit after
``"level":`` inside ``"g_eval_tone": {...}``; the endpoint's log-probabilities are per
token of the reply, with the most likely alternatives at each position.

    p(k) = exp(logprob of the token "k") over the alternatives at the level's position,
           kept for the scale's levels only (normalised where they are used)
"""

from __future__ import annotations

import math
import re
from typing import Any, Sequence

from pydantic import BaseModel

TokenLogprobs = Sequence[Any]
"""Per reply token: ``[token, [[alternative, logprob], ...]]`` (JSON-able, so it is cached)."""

TOP_LOGPROBS = 20
"""Alternatives asked for per token (the OpenAI API's maximum): enough for any 1-10 scale."""


def weighted_fields(output_type: type[BaseModel]) -> list[tuple[str, tuple[int, int]]]:
    """The keys of a bundled reply type whose answers are weighted levels, with their scales."""
    found = []
    for key, field in output_type.model_fields.items():
        kind = field.annotation
        if isinstance(kind, type) and issubclass(kind, BaseModel) and getattr(kind, "weighted", False):
            bounds = {type(m).__name__: m for m in kind.model_fields["level"].metadata}
            low = getattr(bounds.get("Ge"), "ge", None)
            high = getattr(bounds.get("Le"), "le", None)
            if low is not None and high is not None:
                found.append((key, (int(low), int(high))))
    return found


def level_probabilities(content: str, tokens: TokenLogprobs, key: str, scale: tuple[int, int]) -> dict[int, float]:
    """p(level) for each level of ``scale`` among the alternatives at the position of
    ``key``'s level in ``content``; empty when the position or the alternatives are not there."""
    start = re.search(rf'"{re.escape(key)}"\s*:\s*\{{', content)
    if start is None:
        return {}
    level = re.compile(r'"level"\s*:\s*"?(-?\d+)').search(content, start.end())
    if level is None:
        return {}
    at = level.start(1)
    offset = 0
    for token, alternatives in tokens:
        end = offset + len(token)
        if offset <= at < end:
            out: dict[int, float] = {}
            for text, logprob in alternatives or [[token, 0.0]]:
                stripped = str(text).strip().strip('"')
                if re.fullmatch(r"-?\d+", stripped) and scale[0] <= int(stripped) <= scale[1]:
                    out[int(stripped)] = out.get(int(stripped), 0.0) + math.exp(float(logprob))
            return out
        offset = end
    return {}
