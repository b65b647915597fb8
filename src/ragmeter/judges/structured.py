"""Asking for JSON that fits a pydantic type, and reading it back.

Three ways to ask, strongest first, because servers differ in what they support:

* ``json_schema``: the server constrains decoding to the schema (OpenAI, vLLM, recent
  llama.cpp and Ollama). The schema need not be repeated in the prompt.
* ``json_object``: the server guarantees JSON but not its shape; the schema goes in the prompt.
* ``prompt``: no ``response_format`` at all; the schema goes in the prompt.

Reading is forgiving of wrapping (code fences, prose before the object) and strict about
content: the object must validate against the type.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ValidationError

T = TypeVar("T", bound=BaseModel)

StructuredMode = Literal["json_schema", "json_object", "prompt"]
MODES: tuple[StructuredMode, ...] = ("json_schema", "json_object", "prompt")


class OutputParseError(ValueError):
    """The text is not a JSON object of the wanted shape; ``str()`` is fit to show the judge."""


@lru_cache(maxsize=512)
def schema_of(output_type: type[BaseModel]) -> dict[str, Any]:
    """The type's JSON schema, built once per type: it is part of every call's cache key.
    Callers must not mutate the returned dict.

    pydantic's "title" entries are dropped: they repeat the field names, and the schema is
    sent (and paid for) with every call."""
    return _without_titles(output_type.model_json_schema())


def _without_titles(node: Any, names: bool = False) -> Any:
    """Drop the ``title`` keyword from every schema; ``names`` marks a mapping of field or
    definition names (where a key called "title" is a field, not the keyword)."""
    if isinstance(node, dict):
        return {
            k: _without_titles(v, names=k in ("properties", "$defs") and not names)
            for k, v in node.items()
            if names or k != "title"
        }
    if isinstance(node, list):
        return [_without_titles(v) for v in node]
    return node


def response_format(output_type: type[BaseModel], mode: StructuredMode) -> dict[str, Any] | None:
    if mode == "json_schema":
        return {
            "type": "json_schema",
            # strict=False: pydantic schemas use optional fields and defaults, which
            # OpenAI's strict mode rejects; validation happens on our side anyway.
            "json_schema": {"name": output_type.__name__, "schema": schema_of(output_type), "strict": False},
        }
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def schema_instruction(output_type: type[BaseModel]) -> str:
    schema = json.dumps(schema_of(output_type), separators=(",", ":"))
    return (
        "Reply with one JSON object, and nothing else, that validates against this JSON schema:\n"
        f"{schema}"
    )


def with_schema_in_prompt(messages: list[dict[str, str]], output_type: type[BaseModel]) -> list[dict[str, str]]:
    """Append the schema instruction to the system message, or add one."""
    instruction = schema_instruction(output_type)
    out = [dict(m) for m in messages]
    for message in out:
        if message.get("role") == "system":
            message["content"] = f"{message['content']}\n\n{instruction}"
            return out
    return [{"role": "system", "content": instruction}, *out]


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


def extract_json_text(text: str) -> str:
    """The JSON object inside ``text``: a fenced block, else the outermost ``{...}``."""
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1)
    start = text.find("{")
    end = text.rfind("}")
    if start == -1:
        raise OutputParseError("the reply contains no JSON object (no '{' found)")
    if end < start:
        raise OutputParseError("the JSON object is not closed: the reply looks cut off")
    return text[start : end + 1]


_MISSING_COMMA = re.compile(r'("|\d|true|false|null|\}|\])(\s*\n?\s*)(?="[^"\n]{1,64}"\s*:)')
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


def mend_commas(body: str) -> str | None:
    """``body`` with the commas a model most often gets wrong put right (a comma missing
    between two members, one left before a closing bracket), or None when there was nothing
    to mend.

    Why locally: the alternative is the repair re-ask, a whole call, for a slip whose fix is
    not in doubt; the mended text must still parse and fit the schema, so a guess that
    changed the meaning would fail validation like any other bad reply."""
    mended = _TRAILING_COMMA.sub(r"\1", _MISSING_COMMA.sub(r"\1,\2", body))
    return mended if mended != body else None


def parse_output(text: str, output_type: type[T]) -> T:
    """Validate ``text`` as ``output_type``; raise ``OutputParseError`` saying what is wrong.

    A reply that is not valid JSON only because of a missing or trailing comma is mended
    (``mend_commas``) before it is given up on."""
    body = extract_json_text(text)
    try:
        return output_type.model_validate_json(body)
    except ValidationError as exc:
        mended = mend_commas(body) if any(e["type"] == "json_invalid" for e in exc.errors()) else None
        if mended is not None:
            try:
                return output_type.model_validate_json(mended)
            except ValidationError:
                pass
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}" for err in exc.errors()[:8]
        )
        raise OutputParseError(f"the JSON does not fit the schema: {problems}") from None


def repair_messages(
    messages: list[dict[str, str]],
    bad_output: str,
    problem: str,
    output_type: type[BaseModel],
    truncated: bool,
) -> list[dict[str, str]]:
    """The conversation for the one repair re-ask: the bad reply, what was wrong, the schema."""
    hint = (
        "Your reply was cut off before the JSON was complete. Answer again, more briefly "
        "(shorter reasons), so that the whole object fits."
        if truncated
        else f"Your reply could not be used: {problem}."
    )
    return [
        *messages,
        {"role": "assistant", "content": bad_output[:4000]},
        {"role": "user", "content": f"{hint}\n{schema_instruction(output_type)}"},
    ]
