"""Context relevance: does each retrieved chunk help answer the question?

Chunk by chunk, as in the TruLens triad and Ragas 0.2+ ``ContextRelevance``: the judge rates
each chunk's relevance r_k in [0, 1] (1 answers the question, 0.5 answers part of it, 0 does
not help, even when it shares the question's topic or words), with a reason.

    context_relevance = (1 / K) * sum_k r_k            over the K retrieved chunks

A chunk is relevant (its verdict) when r_k >= 0.5. Contexts present but empty (the retriever
returned nothing) score 0.0; no ``contexts`` field at all is ``MissingInput``.
Example: for "What county is Ackley, Iowa in?", [a chunk naming Ackley's counties, a chunk on
Hockley County, Texas] rate [1, 0]: score 0.5. Judge calls: none of its own; all chunks
are rated in the sample's first call. Unlike ``context_relevancy`` (the share of context
sentences needed), it says which chunks a retriever should not have returned.
"""

from __future__ import annotations

from typing import Sequence

from ragmeter.data import Sample
from ragmeter.errors import MissingInput
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore


def context_relevance_score(relevances: Sequence[float]) -> float:
    """Mean chunk relevance; 0.0 when there is no chunk (nothing relevant was retrieved)."""
    return sum(relevances) / len(relevances) if relevances else 0.0


@register
class ContextRelevance(Metric):
    name = "context_relevance"
    required = ("question",)  # contexts are checked in ``score``: an empty list is a 0, not missing
    uses_judge = True

    def needs(self, sample: Sample) -> list[Need]:
        return [needs.CHUNK_RELEVANCE] if _chunks(sample) else []

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        if sample.contexts is None:
            raise MissingInput("field 'contexts' missing; context_relevance needs question, contexts")
        if not _chunks(sample):
            return MetricScore.ok(0.0, "no chunks were retrieved (contexts is empty), so nothing helps answer the question", {"chunks": []})
        judged = (await facts.get(needs.CHUNK_RELEVANCE)).verdicts
        value = context_relevance_score([j.relevance for j in judged])
        verdicts = {
            "chunks": [
                {"rank": k, "relevance": round(j.relevance, 4), "relevant": j.verdict, "reason": j.reason}
                for k, j in enumerate(judged, start=1)
            ]
        }
        relevant = [k for k, j in enumerate(judged, start=1) if j.verdict]
        reason = f"{len(relevant)} of {len(judged)} chunks help answer the question (mean relevance {value:.2f})"
        if relevant:
            reason += f"; relevant at rank {', '.join(map(str, relevant))}"
        return MetricScore.ok(value, reason, verdicts)


def _chunks(sample: Sample) -> bool:
    return any(c.strip() for c in sample.contexts or [])
