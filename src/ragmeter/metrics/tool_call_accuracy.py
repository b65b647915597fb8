"""Tool-call accuracy: the right tools, in the right order, with the right arguments. Judge-free.

Argument values compare as text (``str``), as Ragas compares them, so ``3`` and ``"3"`` agree.
"""

from __future__ import annotations

from typing import Any, Sequence

from ragmeter.conversations import ToolCall
from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.metrics.base import register
from ragmeter.metrics.score import MetricScore
from ragmeter.metrics.tool_calls import ToolCallMetric, calls_of, show_calls


def argument_share(predicted: dict[str, Any], reference: dict[str, Any]) -> float:
    """Share of the reference arguments the call gave the same value:

        share = |{a in ref : a in pred and str(pred[a]) == str(ref[a])}| / |ref|

    1 when neither has arguments, 0 when only the prediction has some."""
    if not reference:
        return 1.0 if not predicted else 0.0
    return sum(a in predicted and str(predicted[a]) == str(v) for a, v in reference.items()) / len(reference)


def _order_key(call: ToolCall) -> tuple[str, ...]:
    return (call.name, *(part for a in sorted(call.arguments) for part in (a, str(call.arguments[a]))))


def tool_call_accuracy_score(predicted: Sequence[ToolCall], reference: Sequence[ToolCall],
                             strict_order: bool = True) -> float:
    """With P the predicted and R the reference calls (both sorted by name and arguments when
    ``strict_order`` is False), paired by position:

        accuracy = aligned * (sum_{i < min(|P|,|R|), P_i.name = R_i.name} share(P_i, R_i)) / |R|
                   * (min(|P|,|R|) / |R| if |P| < |R| else 1)

    where aligned = 1 if the name sequences are equal (as multisets when not strict) else 0;
    1 when both lists are empty, 0 when only one is."""
    if not predicted and not reference:
        return 1.0
    if not predicted or not reference:
        return 0.0
    if not strict_order:
        predicted, reference = sorted(predicted, key=_order_key), sorted(reference, key=_order_key)
    names_p, names_r = [c.name for c in predicted], [c.name for c in reference]
    aligned = names_p == names_r if strict_order else sorted(names_p) == sorted(names_r)
    total = sum(argument_share(p.arguments, r.arguments) for p, r in zip(predicted, reference) if p.name == r.name)
    compared = min(len(predicted), len(reference))
    return float(aligned) * total / len(reference) * (compared / len(reference))


@register
class ToolCallAccuracy(ToolCallMetric):
    name = "tool_call_accuracy"

    def __init__(self, strict_order: bool = True) -> None:
        self.strict_order = strict_order

    def config(self) -> dict[str, Any]:
        return {"strict_order": self.strict_order}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        predicted, reference = calls_of(sample)
        value = tool_call_accuracy_score(predicted, reference, self.strict_order)
        order = "in order" if self.strict_order else "in any order"
        reason = f"called {show_calls(predicted)}; expected {show_calls(reference)} ({order})"
        return MetricScore.ok(value, reason, self.verdicts(predicted, reference))
