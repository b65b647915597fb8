"""Faithfulness: the share of the answer's claims that the retrieved contexts support.

    faithfulness = |supported claims| / |claims|

An answer with no claims (a refusal, "I don't know") has no faithfulness: the score is
None with a ``NoClaims`` error rather than 1 (nothing unsupported) or 0 (nothing supported).
Judge calls per sample: 2 (claims, then all verdicts at once), each shared with the other
judgements of the same phase that the run's other metrics need.
"""

from __future__ import annotations

from typing import Sequence

from ragmeter.data import Sample
from ragmeter.errors import NoClaims
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import Metric, register
from ragmeter.metrics.score import MetricScore


def faithfulness_score(supported: Sequence[bool]) -> float | None:
    """Share of supported claims; None when there are no claims."""
    if not supported:
        return None
    return sum(bool(s) for s in supported) / len(supported)


@register
class Faithfulness(Metric):
    name = "faithfulness"
    required = ("answer", "contexts")
    uses_judge = True

    def needs(self, sample: Sample) -> list[Need]:
        return [needs.ANSWER_SUPPORT]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        pairs = await facts.answer_support()
        verdicts = [
            {"claim": claim, "supported": v.verdict, "reason": v.reason} for claim, v in pairs
        ]
        value = faithfulness_score([v.verdict for _, v in pairs])
        if value is None:
            return MetricScore.failed(
                NoClaims("no_claims: the answer makes no claims to check (a refusal or 'I don't know')"),
                verdicts,
            )
        unsupported = [claim for claim, v in pairs if not v.verdict]
        reason = f"{len(pairs) - len(unsupported)} of {len(pairs)} claims are supported by the contexts"
        if unsupported:
            reason += "; not supported: " + "; ".join(f'"{c}"' for c in unsupported[:3])
        return MetricScore.ok(value, reason, verdicts)
