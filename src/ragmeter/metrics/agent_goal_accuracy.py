"""Agent goal accuracy: did the conversation get the user what they wanted? 1 or 0.

    agent_goal_accuracy = 1 if the judge finds the outcome achieves the goal else 0

With a ``reference`` (the outcome the user wanted) the outcome is judged against it; without
one, the judge first says what the user wanted. Judge calls: 1 per conversation, shared with
the run's other conversation judgements.
"""

from __future__ import annotations

from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import register
from ragmeter.metrics.conversation import ConversationMetric
from ragmeter.metrics.score import MetricScore


def agent_goal_accuracy_score(achieved: bool) -> float:
    """1.0 when the goal was achieved, else 0.0."""
    return 1.0 if achieved else 0.0


@register
class AgentGoalAccuracy(ConversationMetric):
    name = "agent_goal_accuracy"
    uses_judge = True
    binary = True

    def need(self, sample: Sample) -> Need:
        return needs.AGENT_GOAL_WITH_REFERENCE if sample.ground_truth else needs.AGENT_GOAL

    def needs(self, sample: Sample) -> list[Need]:
        return [self.need(sample)]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        verdict = await facts.get(self.need(sample))
        against = "the reference outcome" if sample.ground_truth else "what the user wanted"
        reason = f"{'achieved' if verdict.achieved else 'not achieved'} ({against}: {verdict.goal}); " \
                 f"outcome: {verdict.outcome}; {verdict.reason}"
        return MetricScore.ok(agent_goal_accuracy_score(verdict.achieved), reason, verdict.model_dump())
