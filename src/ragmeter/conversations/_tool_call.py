"""One tool call, read from either form people store it in.

Why two forms: the OpenAI chat format nests the call as ``{"type": "function", "function":
{"name", "arguments": "<JSON string>"}}`` (the arguments stay a string because the model
writes them), while Ragas, LangChain and hand-written references use the flat
``{"name", "arguments" | "args": {...}}``. Both become the same ``ToolCall`` with its
arguments parsed, so calls compare by value whatever their source.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, Field

from ragmeter.data.sample import field_error, type_name


class ToolCall(BaseModel):
    """A call the assistant made (or should have made): a tool name and its arguments."""

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    id: str | None = None


def tool_arguments(value: Any, where: str) -> dict[str, Any]:
    """A call's arguments as a dict, from their JSON string (as a model writes them) or an
    object already; nothing (``None``, ``""``) is no arguments. ``where`` names the value in the
    ``InvalidInput`` raised when it is neither (a message's ``tool_calls[0].function.arguments``,
    a span's ``tool_call.function.arguments``): the one reader for every source, so a call
    reads the same from a file, a frame or a trace."""
    if value is None or value == "":
        return {}
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except json.JSONDecodeError as exc:
            raise field_error(where, f"is not valid JSON ({exc.msg} at character {exc.pos})") from None
        except RecursionError:  # json.loads recurses per level: a hostile string must not end the run
            raise field_error(where, "is JSON nested too deep to read") from None
    if not isinstance(value, Mapping):
        raise field_error(where, f"expected a JSON object of arguments, got {type_name(value)}")
    return {str(k): v for k, v in value.items()}


def read_tool_call(raw: Any, where: str) -> ToolCall:
    """A ``ToolCall`` from the OpenAI nested form, the flat form, or a LangChain / Ragas
    tool-call object; ``where`` names the call in errors (``messages[2].tool_calls[0]``)."""
    if isinstance(raw, ToolCall):
        return raw
    if not isinstance(raw, Mapping) and hasattr(raw, "model_dump"):
        raw = raw.model_dump()  # Ragas' ToolCall, the OpenAI SDK's tool-call objects (pydantic)
    if not isinstance(raw, Mapping):
        raise field_error(where, f"expected a tool call (a mapping with a name), got {type_name(raw)}")
    function = raw.get("function")
    if isinstance(function, Mapping):
        name, arguments, at = function.get("name"), function.get("arguments"), f"{where}.function"
    else:
        name, at = raw.get("name"), where
        arguments = raw.get("arguments", raw.get("args"))
    if not isinstance(name, str) or not name.strip():
        raise field_error(f"{at}.name", "a tool call needs the tool's name")
    call_id = raw.get("id")
    return ToolCall(name=name, arguments=tool_arguments(arguments, f"{at}.arguments"),
                    id=str(call_id) if call_id is not None else None)
