"""Tool-call F1: how many of the expected calls were made, and how many made were expected.
Judge-free; order does not count, a call's name and arguments together do."""

from __future__ import annotations

from typing import Any, Sequence

from ragmeter.conversations import ToolCall
from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.metrics.base import register
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.tool_calls import ToolCallMetric, calls_of, show_calls


def _hashable(value: Any) -> Any:
    if isinstance(value, dict):
        return frozenset((k, _hashable(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, set):
        return frozenset(_hashable(v) for v in value)
    return value


def tool_call_f1_score(predicted: Sequence[ToolCall], reference: Sequence[ToolCall]) -> float:
    """F1 between the sets of (name, arguments) of the predicted (A) and reference (E) calls:

        precision = |A & E| / |A|,  recall = |A & E| / |E|,  f1 = 2 p r / (p + r)

    each 0 when its denominator is (so two empty lists score 0, as in Ragas)."""
    actual = {(c.name, _hashable(c.arguments)) for c in predicted}
    expected = {(c.name, _hashable(c.arguments)) for c in reference}
    hits = len(actual & expected)
    precision = hits / len(actual) if actual else 0.0
    recall = hits / len(expected) if expected else 0.0
    return 2 * precision * recall / (precision + recall) if precision + recall else 0.0


@register
class ToolCallF1(ToolCallMetric):
    name = "tool_call_f1"

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        predicted, reference = calls_of(sample)
        value = tool_call_f1_score(predicted, reference)
        return MetricScore.ok(value, f"called {show_calls(predicted)}; expected {show_calls(reference)}",
                              self.verdicts(predicted, reference))
