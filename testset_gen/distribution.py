"""How many questions of each evolution type a test set of a given size gets."""

from __future__ import annotations

import math
from typing import Mapping, Sequence

from testset_gen.record import EVOLUTION_TYPES

DEFAULT_DISTRIBUTION: dict[str, float] = {"simple": 0.5, "reasoning": 0.25, "multi_context": 0.25}


def parse_distribution(text: str | Mapping[str, float] | None) -> dict[str, float]:
    """``"simple=0.5,reasoning=0.25,multi_context=0.25"`` (or a mapping) -> shares summing to 1.

    Raises ``ValueError`` naming the bad part: an unknown type, a negative or non-numeric
    share, or shares that are all zero. Shares are normalised, so ``simple=2,reasoning=1``
    means two thirds and one third.
    """
    return parse_shares(text, EVOLUTION_TYPES, DEFAULT_DISTRIBUTION, what="evolution type")


def parse_shares(text: str | Mapping[str, float] | None, known: Sequence[str],
                 default: Mapping[str, float], *, what: str) -> dict[str, float]:
    """``"a=0.5,b=0.5"`` (or a mapping) over the names in ``known`` -> shares summing to 1.

    The one parser behind every share option (evolution types, synthesizers, query styles
    and lengths), so they all accept the same forms and fail with the same messages;
    ``what`` names the kind of thing in them ("unknown query style 'shouty'").
    """
    if text is None:
        return dict(default)
    items: list[tuple[str, str | float]] = []
    if isinstance(text, Mapping):
        items = [(str(k), v) for k, v in text.items()]
    else:
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            if "=" not in part:
                raise ValueError(f"distribution part {part!r} is not TYPE=SHARE ({what}=number)")
            key, share_text = part.split("=", 1)
            items.append((key.strip(), share_text.strip()))
    shares: dict[str, float] = {}
    for name, value in items:
        if name not in known:
            raise ValueError(f"unknown {what} {name!r}; known: {', '.join(known)}")
        try:
            share = float(value)
        except (TypeError, ValueError):
            raise ValueError(f"share of {name!r} is not a number: {value!r}") from None
        if share < 0 or math.isnan(share):
            raise ValueError(f"share of {name!r} must be >= 0, got {value!r}")
        shares[name] = shares.get(name, 0.0) + share
    total = sum(shares.values())
    if total <= 0:
        raise ValueError(f"the {what} shares are all zero")
    return {k: v / total for k, v in shares.items() if v > 0}


def plan_counts(size: int, distribution: Mapping[str, float]) -> dict[str, int]:
    """Records per type: ``size * share`` rounded by largest remainder, so the counts sum to
    ``size`` and each is within one record of its exact share. Ties go to the type listed
    first (deterministic)."""
    if size < 0:
        raise ValueError("size must be >= 0")
    exact = {k: size * v for k, v in distribution.items()}
    counts = {k: int(math.floor(x)) for k, x in exact.items()}
    left = size - sum(counts.values())
    order = sorted(exact, key=lambda k: (-(exact[k] - counts[k]), list(exact).index(k)))
    for k in order[:left]:
        counts[k] += 1
    return counts
