"""Conversations are rows of the same engine (``ragmeter.evaluate_conversations`` runs them).

Why not an engine of their own: a conversation is a ``Sample`` (``ConversationSample``), so
the journal (keyed by the conversation's fingerprint), resume, the judge cache, the result
file, the run store and the report all work per conversation unchanged. What this adds:
reading conversations from any source, and running each single-turn RAG metric listed per
turn (``PerTurn``), which is decided by the metric's own required fields: a metric that
reads a conversation's messages scores the conversation, any other scores its turns.
"""

from __future__ import annotations

from typing import Any, Sequence

from ragmeter.conversations import load_conversations
from ragmeter.data import Dataset
from ragmeter.engine.dry_run import RunEstimate, estimate
from ragmeter.metrics.base import Metric, get_metric
from ragmeter.metrics.per_turn import PerTurn

DEFAULT_CONVERSATION_METRICS = ("tool_call_accuracy", "tool_call_f1", "faithfulness")
"""Judge-free tool-call metrics, and faithfulness per turn (the local judge scores it)."""


def conversation_metrics(metrics: Sequence[Metric | str] | None) -> list[Metric]:
    """The metrics for a conversation run: conversation metrics as they are, single-turn ones per turn."""
    chosen = [get_metric(m) for m in (metrics or DEFAULT_CONVERSATION_METRICS)]
    return [m if "messages" in m.required else PerTurn(m) for m in chosen]


def conversation_inputs(data: Any, metrics: Sequence[Metric | str] | None,
                        retrieval_tools: Sequence[str] | None = None) -> tuple[Dataset, list[Metric]]:
    """What ``evaluate`` takes for a conversation run: the conversations read (bad ones kept
    as named row errors) and the metrics, single-turn ones wrapped per turn."""
    return load_conversations(data, retrieval_tools=retrieval_tools), conversation_metrics(metrics)


def estimate_conversations(data: Any, metrics: Sequence[Metric | str] | None = None, *,
                           retrieval_tools: Sequence[str] | None = None, **options: Any) -> RunEstimate:
    """The dry run of ``evaluate_conversations``: calls, tokens and cost, nothing sent."""
    dataset, chosen = conversation_inputs(data, metrics, retrieval_tools)
    return estimate(dataset, chosen, **options)
