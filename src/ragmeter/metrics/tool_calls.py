"""Tool-call metrics: did the agent call the right tools with the right arguments? Judge-free.

Both compare the calls of every assistant message, in order (``ConversationSample.tool_calls``),
with ``reference_tool_calls``, and give the same numbers as Ragas 0.4.3's ToolCallAccuracy
and ToolCallF1 on the same inputs (bench/bench_tool_calls.py prints both side by side).
Argument values compare as text (``str``), as there, so ``3`` and ``"3"`` agree.
"""

from __future__ import annotations

from typing import Any, Sequence

from ragmeter.conversations import ToolCall
from ragmeter.data import Sample
from ragmeter.facts import SampleFacts
from ragmeter.metrics.base import register
from ragmeter.metrics.conversation import ConversationMetric
from ragmeter.metrics.score import MetricScore


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


def _calls(sample: Sample) -> tuple[list[ToolCall], list[ToolCall]]:
    return list(getattr(sample, "tool_calls", [])), list(getattr(sample, "reference_tool_calls", None) or [])


def _show(calls: Sequence[ToolCall]) -> str:
    return ", ".join(f"{c.name}({', '.join(f'{k}={v!r}' for k, v in c.arguments.items())})" for c in calls) or "none"


class ToolCallMetric(ConversationMetric):
    """Needs a conversation with reference calls; reads them off the sample, no judge."""

    required = ("messages", "reference_tool_calls")
    empty_is_data = ("reference_tool_calls",)  # "no call should be made" is a reference

    def verdicts(self, predicted: list[ToolCall], reference: list[ToolCall]) -> dict[str, Any]:
        return {"predicted": [c.model_dump(exclude={"id"}) for c in predicted],
                "reference": [c.model_dump(exclude={"id"}) for c in reference]}


@register
class ToolCallAccuracy(ToolCallMetric):
    name = "tool_call_accuracy"

    def __init__(self, strict_order: bool = True) -> None:
        self.strict_order = strict_order

    def config(self) -> dict[str, Any]:
        return {"strict_order": self.strict_order}

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        predicted, reference = _calls(sample)
        value = tool_call_accuracy_score(predicted, reference, self.strict_order)
        order = "in order" if self.strict_order else "in any order"
        reason = f"called {_show(predicted)}; expected {_show(reference)} ({order})"
        return MetricScore.ok(value, reason, self.verdicts(predicted, reference))


@register
class ToolCallF1(ToolCallMetric):
    name = "tool_call_f1"

    async def score(self, sample: Sample, facts: SampleFacts) -> MetricScore:
        predicted, reference = _calls(sample)
        value = tool_call_f1_score(predicted, reference)
        return MetricScore.ok(value, f"called {_show(predicted)}; expected {_show(reference)}",
                              self.verdicts(predicted, reference))
