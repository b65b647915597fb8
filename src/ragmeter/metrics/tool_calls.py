"""What the two tool-call metrics share: the calls they compare, and how they show them.

Both compare the calls of every assistant message, in order (``ConversationSample.tool_calls``),
with ``reference_tool_calls``, judge-free, and give the same numbers as Ragas 0.4.3's
ToolCallAccuracy and ToolCallF1 on the same inputs (bench/bench_tool_calls.py prints both
side by side).
"""

from __future__ import annotations

from typing import Any, Sequence

from ragmeter.conversations import ToolCall
from ragmeter.data import Sample
from ragmeter.metrics.conversation import ConversationMetric


def calls_of(sample: Sample) -> tuple[list[ToolCall], list[ToolCall]]:
    """(the calls made, the calls expected)."""
    return list(getattr(sample, "tool_calls", [])), list(getattr(sample, "reference_tool_calls", None) or [])


def show_calls(calls: Sequence[ToolCall]) -> str:
    return ", ".join(f"{c.name}({', '.join(f'{k}={v!r}' for k, v in c.arguments.items())})" for c in calls) or "none"


class ToolCallMetric(ConversationMetric):
    """Needs a conversation with reference calls; reads them off the sample, no judge."""

    required = ("messages", "reference_tool_calls")
    empty_is_data = ("reference_tool_calls",)  # "no call should be made" is a reference

    def verdicts(self, predicted: list[ToolCall], reference: list[ToolCall]) -> dict[str, Any]:
        return {"predicted": [c.model_dump(exclude={"id"}) for c in predicted],
                "reference": [c.model_dump(exclude={"id"}) for c in reference]}
