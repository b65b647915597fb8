"""Conversation completeness: how much of what the user wanted did the conversation do?
(DeepEval's definition)

    conversation_completeness = |satisfied user intentions| / |user intentions|

Undefined (a ``MissingInput`` score) when the judge finds no
intention. Judge calls: 1 per conversation, shared with the other conversation judgements.
"""

from __future__ import annotations

from typing import Sequence

from ragmeter.data import Sample
from ragmeter.errors import MissingInput
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import register
from ragmeter.metrics.conversation import ConversationMetric
from ragmeter.metrics.score import MetricScore


def conversation_completeness_score(satisfied: Sequence[bool]) -> float | None:
    """Share of the user's intentions satisfied; None when there are none."""
    return sum(bool(s) for s in satisfied) / len(satisfied) if satisfied else None


@register
class ConversationCompleteness(ConversationMetric):
    name = "conversation_completeness"
    uses_judge = True

    def needs(self, sample: Sample) -> list[Need]:
        return [needs.CONVERSATION_COMPLETENESS]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        intentions = (await facts.get(needs.CONVERSATION_COMPLETENESS)).intentions
        value = conversation_completeness_score([i.satisfied for i in intentions])
        shown = [i.model_dump() for i in intentions]
        if value is None:
            return MetricScore.failed(MissingInput("the judge found no intention of the user in the conversation"), shown)
        missed = [i.intention for i in intentions if not i.satisfied]
        reason = f"{len(intentions) - len(missed)} of {len(intentions)} user intentions satisfied"
        return MetricScore.ok(value, reason + ("; not: " + "; ".join(missed[:3]) if missed else ""), shown)
