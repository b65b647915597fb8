"""``ragmeter evaluate --conversations FILE``: the same command over conversations.

Kept out of ``app.py``'s evaluate body so the command's other options stay as they are:
this turns the file and the chosen metrics into what the engine takes for a conversation
run (conversations read one per row, single-turn metrics scored per reply).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

CONVERSATIONS_HELP = (
    "The file holds conversations (OpenAI chat messages with tool calls, one per line): "
    "conversation metrics (tool_call_accuracy, tool_call_f1, agent_goal_accuracy, topic_adherence, "
    "knowledge_retention, conversation_completeness) score each conversation, single-turn metrics "
    "each reply that has contexts (docs/conversations.md)."
)
RETRIEVAL_TOOL_HELP = "With --conversations: a tool whose results are the contexts of the reply after it (repeatable)."


def conversation_run(data: Path, metrics: Sequence[Any], retrieval_tools: Sequence[str]) -> tuple[Any, list[Any]]:
    """The conversations of ``data`` and the metrics for them (see ``evaluate_conversations``)."""
    from ragmeter.engine.conversations import conversation_inputs

    return conversation_inputs(data, metrics, retrieval_tools or None)
