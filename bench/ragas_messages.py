"""Messages in the bench's reduced form (type, content, flat tool calls) as Ragas' message
objects: shared by run_ragas_tool_calls.py and run_ragas_conversations.py, which run inside
bench/.venv-ragas (Ragas 0.4.3) with this folder first on the path."""

from __future__ import annotations

from ragas.messages import AIMessage, HumanMessage, ToolCall, ToolMessage


def ragas_message(m: dict):
    """One message: ``{"type": "human" | "ai" | "tool", "content", "tool_calls": [...]}``."""
    if m["type"] == "human":
        return HumanMessage(content=m["content"])
    if m["type"] == "tool":
        return ToolMessage(content=m["content"])
    calls = [ToolCall(name=c["name"], args=c["arguments"]) for c in m["tool_calls"]]
    return AIMessage(content=m["content"], tool_calls=calls or None)
