"""The learned head of the claim verifier: alignment signals -> probability of support.

The alignment verifier measures, for a (premise, claim) pair, a dozen signals in [0, 1]
(``Alignment``: how many of the claim's words the premise states, together or apart, by
spelling or by meaning; whether its names, numbers, dates and negations agree; how close the
claim reads to its evidence). How much each signal should weigh is not something a person
sets well by hand: the hand-set formula (``AlignmentVerifier.hand_probability``) scored
faithful paraphrases 0.67 on average on the project's RAG development set because it
trusted the lexical signals that paraphrase breaks.

The head is a logistic regression over those signals::

    z = b + sum_i w_i x_i        support = 1 / (1 + exp(-z))

with its weights in ``support_head.json`` beside this file (a few hundred bytes of plain
numbers, written by ``bench/train_support_head.py`` and readable by anyone). It was trained
on weakly labelled pairs made for this purpose (claims paraphrased from passages as
positives; the same claims with a swapped number, entity, date, role or a negation as
negatives), never on the evaluation sets. Why a linear head and not a deeper one: each
weight says what a signal is worth, a person can check its sign, and with a dozen inputs
it has too few degrees of freedom to learn the quirks of its training passages.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from ragmeter.judges.local.alignment import Alignment

WEIGHTS = Path(__file__).with_name("support_head.json")

FEATURES: tuple[str, ...] = (
    "coverage", "pairs", "entities", "values", "negation", "meaning_coverage",
    "meaning_pairs", "together", "weakest", "no_contrast", "similarity", "read_by_meaning",
    "role_agrees", "no_role_conflict",
)
"""The signals the head reads, in order (see ``features``)."""


def features(a: Alignment) -> list[float]:
    """The head's inputs for one alignment, each in [0, 1], in the order of ``FEATURES``.

    ``coverage``, ``pairs``, ``entities``, ``values``, ``negation``: the lexical checks.
    ``meaning_coverage``, ``meaning_pairs``: the same read by meaning (word counterparts in
    context), or the lexical values when the claim was not read by meaning.
    ``weakest``: the lowest credit of a claim word (the lexical coverage when not read).
    ``no_contrast``: 0 when the evidence states the antonym of a claim word, else 1.
    ``similarity``: cosine of the claim with its closest evidence sentence (0 when not read). ``read_by_meaning``: 1 when the semantic reading exists
    (a claim sharing under a quarter of its words with the premise is not read).
    A claim whose words the premise states all, and together (``found_together``), is not
    read by meaning (the encoder pass is most of the verifier's cost and would find
    nothing); its meaning signals are those of a perfect reading (all 1).
    ``role_agrees`` / ``no_role_conflict``: the role check (``roles``) found the claim's
    agent and patient in the same roles in the premise / did not find them swapped or
    another name in one of them.
    """
    s = a.semantic
    if s is None and a.found_together:  # read by its words alone: nothing left to find
        signals = [a.coverage, a.pairs, a.entities, a.values, a.negation, 1.0, 1.0, 1.0, 1.0,
                   1.0, 1.0, 1.0]
    elif s is None:
        signals = [a.coverage, a.pairs, a.entities, a.values, a.negation, a.coverage, a.pairs,
                   a.pairs, a.coverage, 1.0, 0.0, 0.0]
    else:
        signals = [a.coverage, a.pairs, a.entities, a.values, a.negation, s.coverage, s.pairs,
                   s.together, s.weakest, 1.0 - s.contrast, max(0.0, s.similarity), 1.0]
    return signals + [1.0 if a.roles == 1.0 else 0.0, 0.0 if a.roles == 0.0 else 1.0]


@dataclass(frozen=True)
class SupportHead:
    """Weights of the logistic head, by feature name, and its intercept."""

    weights: dict[str, float]
    bias: float
    trained_on: str = ""

    def probability(self, x: Sequence[float]) -> float:
        """``1 / (1 + exp(-(bias + sum_i w_i x_i)))`` over ``FEATURES``-ordered inputs."""
        z = self.bias + sum(self.weights.get(name, 0.0) * v for name, v in zip(FEATURES, x))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_json(self) -> str:
        return json.dumps({"features": list(FEATURES), "weights": self.weights,
                           "bias": self.bias, "trained_on": self.trained_on}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> "SupportHead":
        """Reads weights written by ``to_json``; a feature this code does not know is an
        error (weights trained on other inputs would score silently wrong)."""
        data = json.loads(text)
        unknown = set(data["weights"]) - set(FEATURES)
        if unknown:
            # internal: the head ships with ragmeter; a bug if hit
            raise ValueError(f"support head: unknown features {sorted(unknown)}")
        return cls({k: float(v) for k, v in data["weights"].items()}, float(data["bias"]),
                   str(data.get("trained_on", "")))


def load_head(path: Path = WEIGHTS) -> SupportHead | None:
    """The head whose weights are at ``path``, or None when there is no such file (the
    verifier then falls back to its hand formula)."""
    if not path.exists():
        return None
    return SupportHead.from_json(path.read_text(encoding="utf-8"))


DEFAULT_HEAD: SupportHead | None = load_head()
"""The shipped head, read once at import (a few hundred bytes of JSON)."""
