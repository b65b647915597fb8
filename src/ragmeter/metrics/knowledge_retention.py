"""Knowledge retention: does every reply keep what the user said earlier? (DeepEval's definition)

    knowledge_retention = |replies that neither contradict nor forget an earlier user fact| / |replies|

Undefined (a ``MissingInput`` score) for a conversation with no reply. Judge calls: 1 per
conversation (one verdict per reply), shared with the other conversation judgements.
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


def knowledge_retention_score(retained: Sequence[bool]) -> float | None:
    """Share of replies that keep the user's facts; None with no replies."""
    return sum(bool(r) for r in retained) / len(retained) if retained else None


@register
class KnowledgeRetention(ConversationMetric):
    name = "knowledge_retention"
    uses_judge = True

    def needs(self, sample: Sample) -> list[Need]:
        return [needs.KNOWLEDGE_RETENTION]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        verdicts = (await facts.get(needs.KNOWLEDGE_RETENTION)).verdicts
        replies = sample.judged_texts()["assistant_turn"]
        shown = [{"reply": r, "retained": v.verdict, "reason": v.reason} for r, v in zip(replies, verdicts)]
        value = knowledge_retention_score([v.verdict for v in verdicts])
        if value is None:
            return MetricScore.failed(MissingInput("the conversation has no assistant reply to judge"))
        lost = [f"assistant {k}: {v.reason}" for k, v in enumerate(verdicts, 1) if not v.verdict]
        reason = f"{len(verdicts) - len(lost)} of {len(verdicts)} replies keep what the user said"
        return MetricScore.ok(value, reason + ("; " + "; ".join(lost[:3]) if lost else ""), shown)
