"""Answer semantic similarity: how close the answer's meaning is to the ground truth's.

    similarity = clip(cos(e(answer), e(ground_truth)), 0, 1)

With a ``threshold`` the score becomes 1 when the similarity reaches it and 0 otherwise.
No judge calls; one embedding per text (cached across runs).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore
from ragmeter.errors import InvalidOption


def cosine_similarity(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of two vectors; 0 when either is all zeros (no direction, no similarity)."""
    na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
    if na == 0.0 or nb == 0.0:
        return 0.0
    return float(np.dot(a, b) / (na * nb))


def answer_similarity_score(similarity: float, threshold: float | None = None) -> float:
    clipped = min(1.0, max(0.0, similarity))
    if threshold is None:
        return clipped
    return 1.0 if clipped >= threshold else 0.0


@register
class AnswerSimilarity(Metric):
    name = "answer_similarity"
    required = ("answer", "ground_truth")
    uses_embedder = True

    def __init__(self, threshold: float | None = None) -> None:
        if threshold is not None and not 0.0 <= threshold <= 1.0:
            raise InvalidOption("threshold must be in [0, 1]")
        self.threshold = threshold

    @property
    def binary(self) -> bool:  # type: ignore[override]
        return self.threshold is not None

    def config(self) -> dict[str, Any]:
        return {"threshold": self.threshold}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        vectors = await facts.embeddings([sample.answer or "", sample.ground_truth or ""])
        similarity = cosine_similarity(vectors[0], vectors[1])
        value = answer_similarity_score(similarity, self.threshold)
        reason = f"cosine similarity of answer and ground truth is {similarity:.3f}"
        if self.threshold is not None:
            reason += f" ({'at or above' if value else 'below'} the threshold {self.threshold:g})"
        return MetricScore.ok(value, reason, {"cosine": round(similarity, 6)})
