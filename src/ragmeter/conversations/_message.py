"""One message of a conversation, read from the shapes chat apps keep them in.

The canonical shape is the OpenAI chat format (``role`` system / user / assistant / tool,
assistant ``tool_calls``, tool ``tool_call_id``). Also read, so that nobody has to convert
before evaluating: Ragas' ``{"type": "human" | "ai" | "tool"}`` records, LangChain message
objects (``HumanMessage``, ``AIMessage`` with ``tool_calls``, ``ToolMessage``) and LlamaIndex
``ChatMessage`` objects (tool calls in ``additional_kwargs``). Foreign objects are read by
the attributes those libraries document, so neither library is imported here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from ragmeter.conversations._tool_call import ToolCall, read_tool_call
from ragmeter.data.sample import field_error, type_name

Role = Literal["system", "user", "assistant", "tool"]

ROLE_NAMES: dict[str, Role] = {
    "system": "system", "developer": "system",
    "user": "user", "human": "user",
    "assistant": "assistant", "ai": "assistant", "chatbot": "assistant", "model": "assistant",
    "tool": "tool", "function": "tool",
}
"""Every spelling of a role met in the wild -> the OpenAI role."""


class Message(BaseModel):
    """A message. ``contexts`` (assistant only): what was retrieved for this reply, when the
    app recorded it; ``reference``: the reply that was expected here, for per-turn metrics
    that compare with one."""

    role: Role
    content: str = ""
    tool_calls: list[ToolCall] = Field(default_factory=list)
    tool_call_id: str | None = None
    name: str | None = None
    contexts: list[str] | None = None
    reference: str | None = None


def _content(value: Any, where: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # OpenAI content parts / LangChain content blocks: the text ones
        texts = []
        for part in value:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, Mapping) and isinstance(part.get("text"), str):
                texts.append(part["text"])
        return "\n".join(texts)
    raise field_error(f"{where}.content", f"expected text, got {type_name(value)}")


def _as_mapping(raw: Any) -> Mapping[str, Any] | None:
    """A foreign message object's fields as a mapping (LangChain, LlamaIndex, Ragas)."""
    if isinstance(raw, Mapping):
        return raw
    role = getattr(raw, "role", None) or getattr(raw, "type", None)
    if role is None or not hasattr(raw, "content"):
        return None
    extra = getattr(raw, "additional_kwargs", None) or {}
    return {
        "role": getattr(role, "value", role),  # LlamaIndex's MessageRole is an enum
        "content": raw.content,
        "tool_calls": getattr(raw, "tool_calls", None) or extra.get("tool_calls"),
        "tool_call_id": getattr(raw, "tool_call_id", None) or extra.get("tool_call_id"),
        "name": getattr(raw, "name", None) or extra.get("name"),
    }


def read_message(raw: Any, where: str) -> Message:
    """A ``Message`` from any of the shapes above; ``InvalidInput`` naming ``where`` (and the
    field inside it) when it is none of them."""
    if isinstance(raw, Message):
        return raw
    data = _as_mapping(raw)
    if data is None:
        raise field_error(where, f"expected a message (a mapping with a role), got {type_name(raw)}")
    spelled = data.get("role", data.get("type"))
    role = ROLE_NAMES.get(str(getattr(spelled, "value", spelled) or "").strip().lower())
    if role is None:
        raise field_error(f"{where}.role", f"unknown role {spelled!r}; expected one of user, assistant, tool, system")
    calls = data.get("tool_calls") or []
    if not isinstance(calls, (list, tuple)):
        raise field_error(f"{where}.tool_calls", f"expected a list, got {type_name(calls)}")
    if calls and role != "assistant":
        raise field_error(f"{where}.tool_calls", f"only assistant messages make tool calls, not {role}")
    contexts = data.get("contexts", data.get("retrieved_contexts"))
    if contexts is not None and (not isinstance(contexts, (list, tuple)) or not all(isinstance(c, str) for c in contexts)):
        raise field_error(f"{where}.contexts", "expected a list of strings")
    reference = data.get("reference")
    if reference is not None and not isinstance(reference, str):
        raise field_error(f"{where}.reference", f"expected text, got {type_name(reference)}")
    name = data.get("name")
    call_id = data.get("tool_call_id")
    return Message(
        role=role,
        content=_content(data.get("content"), where),
        tool_calls=[read_tool_call(c, f"{where}.tool_calls[{k}]") for k, c in enumerate(calls)],
        tool_call_id=str(call_id) if call_id is not None else None,
        name=str(name) if name is not None else None,
        contexts=list(contexts) if contexts is not None else None,
        reference=reference,
    )
