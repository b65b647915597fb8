"""Context precision: are the useful chunks ranked at the top?

For each chunk at rank k, v_k = 1 if it was useful for arriving at the ground truth (or at
the answer, when there is no ground truth), else 0.

    context_precision = sum_k (precision@k * v_k) / |{k : v_k = 1}|,   precision@k = sum_{j<=k} v_j / k

0 when no chunk is useful. Example: v = [0, 1] gives (0 + 1/2) / 1 = 0.5; v = [1, 0] gives 1.0.
Judge calls: none of its own; all chunks are judged in the sample's first call.
"""

from __future__ import annotations

from typing import Sequence

from ragmeter.data import Sample
from ragmeter.errors import MissingInput
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.retrieval import empty_retrieval_score, nothing_retrieved
from ragmeter.metrics.score import MetricScore


def context_precision_score(useful: Sequence[bool]) -> float:
    """Average precision of the ranking ``useful`` (rank 1 first); 0 when nothing is useful."""
    hits = 0
    total = 0.0
    for k, v in enumerate(useful, start=1):
        if v:
            hits += 1
            total += hits / k
    return total / hits if hits else 0.0


@register
class ContextPrecision(Metric):
    name = "context_precision"
    required = ("question", "contexts")
    uses_judge = True
    empty_is_data = ("contexts",)  # nothing retrieved: 0, no judge call

    def needs(self, sample: Sample) -> list[Need]:
        if nothing_retrieved(sample.contexts):
            return []
        return [needs.CONTEXT_USEFULNESS] if (sample.ground_truth or sample.answer) else []

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        if nothing_retrieved(sample.contexts):
            return empty_retrieval_score()
        if not (sample.ground_truth or sample.answer):
            raise MissingInput("field 'ground_truth' missing or empty, and no 'answer' to use instead; context_precision needs one")
        against = "ground truth" if sample.ground_truth else "answer"
        judged = (await facts.get(needs.CONTEXT_USEFULNESS)).verdicts
        useful = [v.verdict for v in judged]
        value = context_precision_score(useful)
        verdicts = {
            "reference": "ground_truth" if sample.ground_truth else "answer",
            "chunks": [{"rank": k, "useful": v.verdict, "reason": v.reason} for k, v in enumerate(judged, start=1)],
        }
        ranks = [k for k, v in enumerate(useful, start=1) if v]
        if not ranks:
            reason = f"none of the {len(useful)} chunks is useful for arriving at the {against}"
        else:
            reason = f"useful chunks at rank {', '.join(map(str, ranks))} of {len(useful)} (judged against the {against})"
        return MetricScore.ok(value, reason, verdicts)
