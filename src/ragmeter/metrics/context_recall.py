"""Context recall: how much of the ground truth the retrieved contexts cover.

    context_recall = |ground-truth claims attributable to the contexts| / |ground-truth claims|

Example: ground truth "France is in Western Europe and its capital is Paris", a context
that mentions Western Europe but not Paris: 1 / 2 = 0.5. The ground truth's claims are
shared with answer correctness; judge calls: none of its own (claims in the sample's first
call, their verdicts in the second).
"""

from __future__ import annotations

from typing import Sequence

from ragmeter.data import Sample
from ragmeter.errors import NoClaims
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.retrieval import empty_retrieval_score, nothing_retrieved
from ragmeter.metrics.score import MetricScore


def context_recall_score(attributed: Sequence[bool]) -> float | None:
    """Share of ground-truth claims the contexts back; None when the ground truth has none."""
    if not attributed:
        return None
    return sum(bool(a) for a in attributed) / len(attributed)


@register
class ContextRecall(Metric):
    name = "context_recall"
    required = ("contexts", "ground_truth")
    uses_judge = True
    empty_is_data = ("contexts",)  # nothing retrieved: 0, no judge call

    def needs(self, sample: Sample) -> list[Need]:
        return [] if nothing_retrieved(sample.contexts) else [needs.GROUND_TRUTH_SUPPORT]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        if nothing_retrieved(sample.contexts):
            return empty_retrieval_score()
        pairs = await facts.ground_truth_support()
        verdicts = [{"claim": c, "attributed": v.verdict, "reason": v.reason} for c, v in pairs]
        value = context_recall_score([v.verdict for _, v in pairs])
        if value is None:
            return MetricScore.failed(NoClaims("no_claims: the ground truth states nothing to look for in the contexts"), verdicts)
        missing = [c for c, v in pairs if not v.verdict]
        reason = f"{len(pairs) - len(missing)} of {len(pairs)} ground-truth claims are found in the contexts"
        if missing:
            reason += "; missing: " + "; ".join(f'"{c}"' for c in missing[:3])
        return MetricScore.ok(value, reason, verdicts)
