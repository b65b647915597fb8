"""Topic adherence: does the assistant answer within its allowed topics and decline the rest?

Over the user's messages, with ``answered`` (the assistant answered, not refused) and
``on_topic`` (the message is within ``reference_topics``) judged per message:

    TP = answered and on topic, FP = answered and off topic, FN = refused and on topic
    precision = TP / (TP + FP),  recall = TP / (TP + FN),  f1 = 2 p r / (p + r)

each 0 when its denominator is (Ragas' definition; ``mode`` picks which is the score).
Judge calls: 1 per conversation (Ragas makes 2 + one per topic).
"""

from __future__ import annotations

from typing import Any, Sequence

from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.judgements import Need, needs
from ragmeter.metrics.base import register
from ragmeter.metrics.conversation import ConversationMetric
from ragmeter.metrics.score import MetricScore
from ragmeter.errors import InvalidOption

MODES = ("f1", "precision", "recall")


def topic_adherence_score(answered: Sequence[bool], on_topic: Sequence[bool], mode: str = "f1") -> float:
    """The precision, recall or F1 above, from one (answered, on_topic) pair per user message."""
    tp = sum(a and t for a, t in zip(answered, on_topic))
    fp = sum(a and not t for a, t in zip(answered, on_topic))
    fn = sum(t and not a for a, t in zip(answered, on_topic))
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    if mode == "precision":
        return precision
    if mode == "recall":
        return recall
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


@register
class TopicAdherence(ConversationMetric):
    name = "topic_adherence"
    required = ("messages", "reference_topics")
    uses_judge = True

    def __init__(self, mode: str = "f1") -> None:
        if mode not in MODES:
            raise InvalidOption(f"mode must be one of {MODES}, not {mode!r}")
        self.mode = mode

    def config(self) -> dict[str, Any]:
        return {"mode": self.mode}

    def needs(self, sample: Sample) -> list[Need]:
        return [needs.TOPIC_ADHERENCE]

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        verdicts = (await facts.get(needs.TOPIC_ADHERENCE)).verdicts
        users = sample.judged_texts()["user_turn"]
        shown = [{"user": u, **v.model_dump()} for u, v in zip(users, verdicts)]
        value = topic_adherence_score([v.answered for v in verdicts], [v.on_topic for v in verdicts], self.mode)
        wrong = [f"user {k}" for k, v in enumerate(verdicts, 1) if v.answered != v.on_topic]
        reason = f"{len(verdicts) - len(wrong)} of {len(verdicts)} user messages handled as their topic asks"
        if wrong:
            reason += " (answered off topic or refused on topic: " + ", ".join(wrong) + ")"
        return MetricScore.ok(value, f"{self.mode} {value:.2f}: {reason}", shown)
